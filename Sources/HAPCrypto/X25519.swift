import CSodium

/// X25519 Diffie-Hellman (RFC 7748, `crypto_scalarmult_curve25519`): the ephemeral key
/// agreement of HAP Pair Verify.
public enum X25519 {
    /// Private keys, public keys and shared secrets are all 32 bytes.
    public static let byteCount = Int(crypto_scalarmult_curve25519_BYTES)

    /// A private scalar. It is clamped by libsodium on use, as RFC 7748 §5 specifies.
    public struct PrivateKey: Sendable, CustomStringConvertible {
        /// The 32 secret bytes.
        public let secret: SecretBytes

        /// A fresh random key.
        public init() {
            secret = .random(count: X25519.byteCount)
        }

        /// A key from its 32 bytes, such as an ephemeral key exported to a key log.
        ///
        /// - Throws: `CryptoError.invalidSize` for any other length.
        public init(_ secret: SecretBytes) throws(CryptoError) {
            try CryptoError.requireSize(secret.count, X25519.byteCount, of: "an X25519 private key")
            self.secret = secret
        }

        /// The matching public key, the `PublicKey` HAP sends in Pair Verify M1 or M2
        /// (`crypto_scalarmult_curve25519_base`).
        public var publicKey: [UInt8] {
            Sodium.initialize()
            return [UInt8](unsafeUninitializedCapacity: X25519.byteCount) { publicKey, initializedCount in
                secret.withUnsafeBytes { _ = crypto_scalarmult_curve25519_base(publicKey.baseAddress!, $0.sodiumInput!) }
                initializedCount = X25519.byteCount
            }
        }

        /// The shared secret with a peer's public key (`crypto_scalarmult_curve25519`); HAP
        /// calls it the Pair Verify shared secret.
        ///
        /// - Throws: `CryptoError.invalidSize` unless the key is 32 bytes;
        ///   `CryptoError.invalidPublicKey` for a small-order point, whose shared secret is
        ///   all zero (RFC 7748 §6.1).
        public func sharedSecret(with peerPublicKey: RawSpan) throws(CryptoError) -> SecretBytes {
            try CryptoError.requireSize(peerPublicKey.byteCount, X25519.byteCount, of: "an X25519 public key")
            Sodium.initialize()
            return try peerPublicKey.withUnsafeBytes { (peer) throws(CryptoError) in
                try secret.withUnsafeBytes { (scalar) throws(CryptoError) in
                    try SecretBytes(byteCount: X25519.byteCount) { (shared) throws(CryptoError) in
                        guard crypto_scalarmult_curve25519(shared.sodiumOutput!, scalar.sodiumInput!, peer.sodiumInput!) == 0 else {
                            throw CryptoError(.invalidPublicKey, "the X25519 public key is a small-order point: the shared secret would be all zero")
                        }
                    }
                }
            }
        }

        public var description: String { "X25519.PrivateKey(\(secret))" }
    }
}
