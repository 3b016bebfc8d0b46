import CSodium
import WireParsing

/// Ed25519 signatures (RFC 8032, `crypto_sign_*`): HAP's long-term pairing keys (LTPK/LTSK).
public enum Ed25519 {
    public static let publicKeyByteCount = Int(crypto_sign_PUBLICKEYBYTES)
    public static let seedByteCount = Int(crypto_sign_SEEDBYTES)
    public static let signatureByteCount = Int(crypto_sign_BYTES)

    /// A public key as sent in a pairing TLV: any 32 bytes. Whether it is usable shows when
    /// a signature is verified against it.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        /// The 32 key bytes.
        public let bytes: [UInt8]

        /// - Throws: `CryptoError.invalidSize` unless `bytes` is 32 bytes long.
        public init(_ bytes: RawSpan) throws(CryptoError) {
            try CryptoError.requireSize(bytes.byteCount, Ed25519.publicKeyByteCount, of: "an Ed25519 public key")
            self.bytes = [UInt8](bytes)
        }

        /// - Throws: `CryptoError.invalidSize` unless `bytes` is 32 bytes long.
        public init(_ bytes: [UInt8]) throws(CryptoError) {
            try self.init(bytes.span.bytes)
        }

        fileprivate init(validBytes bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Whether every byte is zero, a key some firmware sends in Pair Setup M6 (§8 #4).
        public var isAllZero: Bool { bytes.allSatisfy { $0 == 0 } }

        /// Checks a detached signature over `message` (`crypto_sign_verify_detached`, which
        /// also rejects non-canonical signatures and small-order keys).
        ///
        /// - Throws: `CryptoError.invalidPublicKey` for an all-zero key;
        ///   `CryptoError.invalidSize` unless the signature is 64 bytes;
        ///   `CryptoError.invalidSignature` when it does not verify.
        public func verify(signature: RawSpan, for message: RawSpan) throws(CryptoError) {
            guard !isAllZero else {
                throw CryptoError(.invalidPublicKey, "the Ed25519 public key is all zero")
            }
            try CryptoError.requireSize(signature.byteCount, Ed25519.signatureByteCount, of: "an Ed25519 signature")
            Sodium.initialize()
            let result = signature.withUnsafeBytes { signature in
                message.withUnsafeBytes { message in
                    bytes.withUnsafeBufferPointer { key in
                        crypto_sign_verify_detached(signature.sodiumInput!, message.sodiumInput, UInt64(message.count), key.baseAddress!)
                    }
                }
            }
            guard result == 0 else {
                throw CryptoError(.invalidSignature, "the Ed25519 signature does not verify with public key \(self)")
            }
        }

        /// Whether `signature` is a valid signature of `message` under this key.
        public func isValidSignature(_ signature: RawSpan, for message: RawSpan) -> Bool {
            do {
                try verify(signature: signature, for: message)
                return true
            } catch {
                return false
            }
        }

        /// The key in hex: a public key may be shown.
        public var description: String { Hex.encode(bytes) }
    }

    /// A signing key made from a 32-byte seed (`crypto_sign_seed_keypair`), for tests and for
    /// generating deterministic captures.
    public struct SigningKey: Sendable, CustomStringConvertible {
        /// The 32-byte seed the key pair is made from.
        public let seed: SecretBytes
        public let publicKey: PublicKey
        /// libsodium's 64-byte secret key: the seed followed by the public key.
        private let expandedSecretKey: SecretBytes

        /// A fresh random key.
        public init() {
            self.init(validSeed: .random(count: Ed25519.seedByteCount))
        }

        /// The key pair of `seed` (`crypto_sign_seed_keypair`).
        ///
        /// - Throws: `CryptoError.invalidSize` unless `seed` is 32 bytes long.
        public init(seed: SecretBytes) throws(CryptoError) {
            try CryptoError.requireSize(seed.count, Ed25519.seedByteCount, of: "an Ed25519 seed")
            self.init(validSeed: seed)
        }

        private init(validSeed seed: SecretBytes) {
            Sodium.initialize()
            var publicKeyBytes = [UInt8](repeating: 0, count: Ed25519.publicKeyByteCount)
            expandedSecretKey = SecretBytes(byteCount: Int(crypto_sign_SECRETKEYBYTES)) { secretKey in
                seed.withUnsafeBytes { seed in
                    _ = crypto_sign_seed_keypair(&publicKeyBytes, secretKey.sodiumOutput!, seed.sodiumInput!)
                }
            }
            self.seed = seed
            publicKey = PublicKey(validBytes: publicKeyBytes)
        }

        /// The detached signature of `message` (`crypto_sign_detached`).
        public func signature(for message: RawSpan) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: Ed25519.signatureByteCount) { signature, initializedCount in
                message.withUnsafeBytes { message in
                    expandedSecretKey.withUnsafeBytes { secretKey in
                        _ = crypto_sign_detached(signature.baseAddress!, nil, message.sodiumInput, UInt64(message.count), secretKey.sodiumInput!)
                    }
                }
                initializedCount = Ed25519.signatureByteCount
            }
        }

        public var description: String { "Ed25519.SigningKey(public key \(publicKey))" }
    }
}
