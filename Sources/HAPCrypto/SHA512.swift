import CSodium

/// SHA-512 (`crypto_hash_sha512_*`), the hash of HAP's SRP, setup hash and HKDF.
public struct SHA512: Sendable, MultipartDigest {
    /// The digest length, 64 bytes (`crypto_hash_sha512_BYTES`).
    public static let byteCount = Int(crypto_hash_sha512_BYTES)

    private var state = crypto_hash_sha512_state()

    /// Starts a hash (`crypto_hash_sha512_init`).
    public init() {
        Sodium.initialize()
        crypto_hash_sha512_init(&state)
    }

    /// The digest of `message` (`crypto_hash_sha512`).
    public static func hash(_ message: RawSpan) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(message)
        return hasher.finalize()
    }

    /// Appends `message` (`crypto_hash_sha512_update`).
    package mutating func update(_ message: UnsafeRawBufferPointer) {
        crypto_hash_sha512_update(&state, message.sodiumInput, UInt64(message.count))
    }

    /// `crypto_hash_sha512_final`, then the state is wiped.
    package consuming func finalize(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= SHA512.byteCount, "SHA-512 output buffer shorter than 64 bytes")
        crypto_hash_sha512_final(&state, output.sodiumOutput!)
        sodium_memzero(&state, MemoryLayout<crypto_hash_sha512_state>.size)
    }
}
