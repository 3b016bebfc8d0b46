/// The error every HAPCrypto operation throws.
///
/// A small, extensible code says what kind of failure it is; `reason` says, in words a user
/// can act on, which value was wrong. Two errors are equal when their codes are equal, so
/// tests and callers match on the kind of failure, not on the wording.
public struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A ChaCha20-Poly1305 tag did not match: wrong key, wrong nonce or altered bytes.
        public static let authenticationFailed = Code(rawValue: "authentication failed")
        /// An Ed25519 signature did not verify against the message and key.
        public static let invalidSignature = Code(rawValue: "invalid signature")
        /// A public key that cannot be used: an all-zero Ed25519 key, or an X25519 key of
        /// small order (the shared secret would be all zero).
        public static let invalidPublicKey = Code(rawValue: "invalid public key")
        /// An input of the wrong length: a key, nonce, signature, SRP value or output size.
        public static let invalidSize = Code(rawValue: "invalid size")
        /// Text that does not have the required form, such as a setup code or setup ID.
        public static let invalidFormat = Code(rawValue: "invalid format")
        /// A caller-provided output buffer is too small for the result.
        public static let bufferTooSmall = Code(rawValue: "buffer too small")

        public var description: String { rawValue }
    }

    public var code: Code
    /// Which value was wrong and what was expected.
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}

extension CryptoError: Hashable {
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension CryptoError {
    /// Throws `.invalidSize` unless `count` equals `expected`.
    static func requireSize(_ count: Int, _ expected: Int, of what: String) throws(CryptoError) {
        guard count == expected else {
            throw CryptoError(.invalidSize, "\(what) must be \(expected) bytes, not \(count)")
        }
    }
}
