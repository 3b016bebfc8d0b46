/// Everything HAP derives from the Pair Verify X25519 shared secret (ADK's `cv_KEY`).
public struct PairVerifyKeys: Sendable, CustomStringConvertible {
    /// Seals the `EncryptedData` of Pair Verify M2 and M3: HKDF-SHA-512, salt
    /// `Pair-Verify-Encrypt-Salt`, info `Pair-Verify-Encrypt-Info`.
    public let encryptionKey: ChaCha20Poly1305.Key
    /// The session keys that protect every frame after M4.
    public let session: SessionKeys

    /// - Parameter sharedSecret: X25519(own secret, peer public key), from a key log or
    ///   `X25519.PrivateKey.sharedSecret(with:)`.
    /// - Throws: `CryptoError.invalidSize` unless the secret is 32 bytes long.
    public init(sharedSecret: SecretBytes) throws(CryptoError) {
        try CryptoError.requireSize(sharedSecret.count, X25519.byteCount, of: "the Pair Verify shared secret")
        // HAP: Pair Verify M2 (PROTOCOL §3)
        encryptionKey = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info"))
        session = SessionKeys(pairVerifySharedSecret: sharedSecret)
    }

    public var description: String { "PairVerifyKeys(encryptionKey: \(encryptionKey.secret), session: \(session))" }
}
