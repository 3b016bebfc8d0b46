import CSodium

/// ChaCha20-Poly1305, IETF variant (RFC 8439: 96-bit nonce, 32-bit block counter),
/// `crypto_aead_chacha20poly1305_ietf_*`.
///
/// HAP uses only this variant. The original construction
/// (`crypto_aead_chacha20poly1305_encrypt`, 64-bit nonce) produces the same ciphertext but a
/// different tag, so it must never be used (PROTOCOL §8 #2).
public enum ChaCha20Poly1305 {
    public static let keyByteCount = Int(crypto_aead_chacha20poly1305_ietf_KEYBYTES)
    public static let nonceByteCount = Int(crypto_aead_chacha20poly1305_ietf_NPUBBYTES)
    public static let tagByteCount = Int(crypto_aead_chacha20poly1305_ietf_ABYTES)

    /// A 32-byte key.
    public struct Key: Sendable, Equatable, CustomStringConvertible {
        public let secret: SecretBytes

        /// - Throws: `CryptoError.invalidSize` unless `secret` is 32 bytes long.
        public init(_ secret: SecretBytes) throws(CryptoError) {
            try CryptoError.requireSize(secret.count, ChaCha20Poly1305.keyByteCount, of: "a ChaCha20-Poly1305 key")
            Sodium.initialize()
            self.secret = secret
        }

        /// A fresh random key (`randombytes_buf`, as `crypto_aead_chacha20poly1305_ietf_keygen`).
        public static func random() -> Key {
            Key(validSecret: .random(count: ChaCha20Poly1305.keyByteCount))
        }

        /// For secrets whose size is fixed by construction, such as HKDF outputs.
        init(validSecret secret: SecretBytes) {
            Sodium.initialize()
            self.secret = secret
        }

        public var description: String { "ChaCha20Poly1305.Key(\(secret))" }
    }

    /// The sealed form of `plaintext`: ciphertext ‖ 16-byte tag
    /// (`crypto_aead_chacha20poly1305_ietf_encrypt`).
    public static func seal(
        _ plaintext: RawSpan, key: Key, nonce: Nonce, authenticating additionalData: RawSpan = RawSpan()
    ) -> [UInt8] {
        let sealedCount = plaintext.byteCount + tagByteCount
        return [UInt8](unsafeUninitializedCapacity: sealedCount) { output, initializedCount in
            plaintext.withUnsafeBytes { plaintext in
                additionalData.withUnsafeBytes { additionalData in
                    unsafeSeal(plaintext, key: key, nonce: nonce, additionalData: additionalData, into: UnsafeMutableRawBufferPointer(output))
                }
            }
            initializedCount = sealedCount
        }
    }

    /// The plaintext of `sealed` (ciphertext ‖ 16-byte tag)
    /// (`crypto_aead_chacha20poly1305_ietf_decrypt`).
    ///
    /// - Throws: `CryptoError.invalidSize` when `sealed` is shorter than a tag;
    ///   `CryptoError.authenticationFailed` when the tag does not match.
    public static func open(
        _ sealed: RawSpan, key: Key, nonce: Nonce, authenticating additionalData: RawSpan = RawSpan()
    ) throws(CryptoError) -> [UInt8] {
        guard sealed.byteCount >= tagByteCount else { throw shorterThanTag(sealed.byteCount) }
        let plaintextCount = sealed.byteCount - tagByteCount
        var isAuthentic = false
        let plaintext = [UInt8](unsafeUninitializedCapacity: plaintextCount) { output, initializedCount in
            isAuthentic = sealed.withUnsafeBytes { sealed in
                additionalData.withUnsafeBytes { additionalData in
                    unsafeOpen(sealed, key: key, nonce: nonce, additionalData: additionalData, into: UnsafeMutableRawBufferPointer(output))
                }
            }
            initializedCount = isAuthentic ? plaintextCount : 0
        }
        guard isAuthentic else {
            throw CryptoError(.authenticationFailed, "the ChaCha20-Poly1305 tag does not match (nonce \(nonce))")
        }
        return plaintext
    }

    /// Seals `plaintext` into `output` without allocating
    /// (`crypto_aead_chacha20poly1305_ietf_encrypt`). `output` may start at the same address
    /// as `plaintext` to seal in place.
    ///
    /// - Returns: The number of bytes written, `plaintext.count + 16`.
    /// - Throws: `CryptoError.bufferTooSmall` when `output` is shorter than that.
    public static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: Key, nonce: Nonce,
        authenticating additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        let sealedCount = plaintext.count + tagByteCount
        guard output.count >= sealedCount else {
            throw CryptoError(.bufferTooSmall, "sealing \(plaintext.count) bytes needs \(sealedCount) output bytes, not \(output.count)")
        }
        unsafeSeal(plaintext, key: key, nonce: nonce, additionalData: additionalData, into: output)
        return sealedCount
    }

    /// Opens `sealed` (ciphertext ‖ tag) into `output` without allocating
    /// (`crypto_aead_chacha20poly1305_ietf_decrypt`). `output` may start at the same address
    /// as `sealed` to open in place. Nothing is written unless the tag matches.
    ///
    /// - Returns: The number of plaintext bytes written, `sealed.count - 16`.
    /// - Throws: `CryptoError.invalidSize` when `sealed` is shorter than a tag;
    ///   `CryptoError.bufferTooSmall` when `output` cannot hold the plaintext;
    ///   `CryptoError.authenticationFailed` when the tag does not match.
    public static func open(
        _ sealed: UnsafeRawBufferPointer, key: Key, nonce: Nonce,
        authenticating additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        guard sealed.count >= tagByteCount else { throw shorterThanTag(sealed.count) }
        let plaintextCount = sealed.count - tagByteCount
        guard output.count >= plaintextCount else {
            throw CryptoError(.bufferTooSmall, "opening \(sealed.count) bytes needs \(plaintextCount) output bytes, not \(output.count)")
        }
        guard unsafeOpen(sealed, key: key, nonce: nonce, additionalData: additionalData, into: output) else {
            throw CryptoError(.authenticationFailed, "the ChaCha20-Poly1305 tag does not match (nonce \(nonce))")
        }
        return plaintextCount
    }

    private static func shorterThanTag(_ count: Int) -> CryptoError {
        CryptoError(.invalidSize, "sealed data must hold at least the \(tagByteCount)-byte tag, not \(count) bytes")
    }

    /// Seals into `output`, which the caller checked holds plaintext + tag.
    @inline(__always)
    static func unsafeSeal(
        _ plaintext: UnsafeRawBufferPointer, key: Key, nonce: Nonce,
        additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) {
        key.secret.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                _ = crypto_aead_chacha20poly1305_ietf_encrypt(
                    output.sodiumOutput!, nil,
                    plaintext.sodiumInput, UInt64(plaintext.count),
                    additionalData.sodiumInput, UInt64(additionalData.count),
                    nil, nonce.sodiumInput!, key.sodiumInput!)
            }
        }
    }

    /// Opens into `output`, which the caller checked holds the plaintext; false when the tag
    /// does not match. With `output` nil only the tag is checked.
    @inline(__always)
    static func unsafeOpen(
        _ sealed: UnsafeRawBufferPointer, key: Key, nonce: Nonce,
        additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer?
    ) -> Bool {
        let ciphertextCount = sealed.count - tagByteCount
        let base = sealed.baseAddress!
        return key.secret.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                crypto_aead_chacha20poly1305_ietf_decrypt_detached(
                    output?.sodiumOutput, nil,
                    base.assumingMemoryBound(to: UInt8.self), UInt64(ciphertextCount),
                    (base + ciphertextCount).assumingMemoryBound(to: UInt8.self),
                    additionalData.sodiumInput, UInt64(additionalData.count),
                    nonce.sodiumInput!, key.sodiumInput!) == 0
            }
        }
    }
}
