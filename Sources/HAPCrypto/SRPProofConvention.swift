/// How an implementation spells a number-valued byte string (salt, A or B) inside an SRP
/// hash (PROTOCOL §2.3).
public enum SRPValueEncoding: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Exactly the bytes sent on the wire.
    case asSent
    /// Leading zero bytes stripped.
    case minimal
    /// Left-padded with zero bytes: A and B to 384 bytes, the salt to 16.
    case padded

    /// Applies the encoding; a value already longer than `paddedLength` is left as is.
    func apply(to value: [UInt8], paddedLength: Int) -> [UInt8] {
        switch self {
        case .asSent:
            return value
        case .minimal:
            return Array(value.drop { $0 == 0 })
        case .padded:
            let significant = value.drop { $0 == 0 }
            guard significant.count < paddedLength else { return Array(significant) }
            return [UInt8](repeating: 0, count: paddedLength - significant.count) + significant
        }
    }

    public var description: String {
        switch self {
        case .asSent: "as sent"
        case .minimal: "minimal"
        case .padded: "padded"
        }
    }
}

/// How an implementation feeds the premaster secret S into K = H(S) (PROTOCOL §2.3).
public enum SRPPremasterSecretEncoding: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Leading zero bytes stripped (ADK, esp-homekit-sdk, HAP-python, homekit_python).
    case minimal
    /// Left-padded to 384 bytes (fast-srp in HAP-NodeJS, aiohomekit).
    case padded

    public var description: String {
        switch self {
        case .minimal: "minimal S"
        case .padded: "padded S"
        }
    }
}

/// How an implementation uses the 64-byte SRP session key K in proofs and key derivation.
public enum SRPSessionKeyEncoding: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// All 64 bytes (ADK, esp-homekit-sdk, HAP-NodeJS, aiohomekit).
    case full
    /// K's own leading zero bytes stripped (HAP-python, homekit_python).
    case leadingZerosStripped

    func apply(to key: SecretBytes) -> SecretBytes {
        switch self {
        case .full: key
        case .leadingZerosStripped: key.strippingLeadingZeros()
        }
    }

    public var description: String {
        switch self {
        case .full: "64-byte K"
        case .leadingZerosStripped: "K without leading zeros"
        }
    }
}

/// The encodings behind a controller proof M1 = H(H(N) xor H(g) ‖ H(I) ‖ s ‖ A ‖ B ‖ K).
public struct SRPControllerProofConvention: Sendable, Hashable, CustomStringConvertible {
    public var salt: SRPValueEncoding
    public var controllerPublicKey: SRPValueEncoding
    public var accessoryPublicKey: SRPValueEncoding
    public var sessionKey: SRPSessionKeyEncoding

    public init(
        salt: SRPValueEncoding, controllerPublicKey: SRPValueEncoding,
        accessoryPublicKey: SRPValueEncoding, sessionKey: SRPSessionKeyEncoding
    ) {
        self.salt = salt
        self.controllerPublicKey = controllerPublicKey
        self.accessoryPublicKey = accessoryPublicKey
        self.sessionKey = sessionKey
    }

    /// Every value as sent and the full K: the reading of the protocol every verifier tries first.
    public static let asSent = SRPControllerProofConvention(salt: .asSent, controllerPublicKey: .asSent, accessoryPublicKey: .asSent, sessionKey: .full)

    public var description: String {
        "salt \(salt), A \(controllerPublicKey), B \(accessoryPublicKey), \(sessionKey)"
    }
}

/// The encodings behind an accessory proof M2 = H(A ‖ M1 ‖ K).
public struct SRPAccessoryProofConvention: Sendable, Hashable, CustomStringConvertible {
    public var controllerPublicKey: SRPValueEncoding
    public var sessionKey: SRPSessionKeyEncoding

    public init(controllerPublicKey: SRPValueEncoding, sessionKey: SRPSessionKeyEncoding) {
        self.controllerPublicKey = controllerPublicKey
        self.sessionKey = sessionKey
    }

    /// A as sent and the full K.
    public static let asSent = SRPAccessoryProofConvention(controllerPublicKey: .asSent, sessionKey: .full)

    public var description: String { "A \(controllerPublicKey), \(sessionKey)" }
}
