import CSodium

/// HMAC-SHA-512 (`crypto_auth_hmacsha512_*`), which accepts keys of any length (RFC 2104).
///
/// HKDF-SHA-512 is built on it because libsodium 1.0.18 has no `crypto_kdf_hkdf_*`.
public struct HMACSHA512: Sendable, MultipartDigest {
    /// The authentication code length, 64 bytes (`crypto_auth_hmacsha512_BYTES`).
    public static let byteCount = Int(crypto_auth_hmacsha512_BYTES)

    private var state = crypto_auth_hmacsha512_state()

    /// Starts an HMAC under `key` (`crypto_auth_hmacsha512_init`).
    public init(key: RawSpan) {
        state = key.withUnsafeBytes { HMACSHA512.initialState(key: $0) }
    }

    /// Starts an HMAC under a secret key (`crypto_auth_hmacsha512_init`).
    public init(key: SecretBytes) {
        state = key.withUnsafeBytes { HMACSHA512.initialState(key: $0) }
    }

    /// Starts an HMAC under key bytes that are only read during this call.
    init(key: UnsafeRawBufferPointer) {
        state = HMACSHA512.initialState(key: key)
    }

    /// libsodium folds the key into the inner and outer hash states and keeps no
    /// reference to it.
    private static func initialState(key: UnsafeRawBufferPointer) -> crypto_auth_hmacsha512_state {
        Sodium.initialize()
        var state = crypto_auth_hmacsha512_state()
        // The key pointer is declared nonnull even for an empty key (HKDF's absent salt).
        var emptyKey: UInt8 = 0
        if let keyBytes = key.sodiumInput {
            crypto_auth_hmacsha512_init(&state, keyBytes, key.count)
        } else {
            crypto_auth_hmacsha512_init(&state, &emptyKey, 0)
        }
        return state
    }

    /// The authentication code of `message` under `key`.
    public static func authenticationCode(for message: RawSpan, key: RawSpan) -> [UInt8] {
        var hmac = HMACSHA512(key: key)
        hmac.update(message)
        return hmac.finalize()
    }

    /// Appends `message` (`crypto_auth_hmacsha512_update`).
    package mutating func update(_ message: UnsafeRawBufferPointer) {
        crypto_auth_hmacsha512_update(&state, message.sodiumInput, UInt64(message.count))
    }

    /// `crypto_auth_hmacsha512_final`, then the state is wiped. HKDF writes derived key bytes
    /// straight into secret storage with it.
    package consuming func finalize(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= HMACSHA512.byteCount, "HMAC-SHA-512 output buffer shorter than 64 bytes")
        crypto_auth_hmacsha512_final(&state, output.sodiumOutput!)
        sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha512_state>.size)
    }
}
