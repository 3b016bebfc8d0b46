import TLV8

/// A check hapscope made on a pairing exchange with the keys it had: an SRP proof, the opening
/// of an encrypted sub-TLV, or an Ed25519 signature.
public struct PairingCheck: Sendable, Hashable, CustomStringConvertible {
    /// What was checked. Consumers match on these values, never on names.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// Pair-setup M3: the controller's proof against the session key K.
        case srpControllerProof
        /// Pair-setup M4: the accessory's proof against K.
        case srpAccessoryProof
        /// The `EncryptedData` of this step (pair-verify M2, M3; pair-setup M5, M6) opens with
        /// the key the key log gives.
        case subTLVDecryption(PairingState)
        /// The opened sub-TLV holds the items its step needs.
        case subTLVItems(PairingState)
        /// The Ed25519 signature of this step verifies with the signer's long-term key.
        case signature(PairingState)

        /// The stable name JSON and reports use: `srp-controller-proof`, `srp-accessory-proof`,
        /// `m2-decryption`, `m5-sub-tlv`, `m3-signature`.
        public var name: String {
            switch self {
            case .srpControllerProof: "srp-controller-proof"
            case .srpAccessoryProof: "srp-accessory-proof"
            case .subTLVDecryption(let state): "m\(state.rawValue)-decryption"
            case .subTLVItems(let state): "m\(state.rawValue)-sub-tlv"
            case .signature(let state): "m\(state.rawValue)-signature"
            }
        }

        public var description: String { name }
    }

    public enum Outcome: Sendable, Hashable {
        case passed
        case failed
        /// Not made, and why (no key for it, message missing).
        case notChecked(String)
    }

    public let kind: Kind
    public let outcome: Outcome
    /// What was compared, in words: which values, which keys, which convention matched.
    public let detail: String

    public init(_ kind: Kind, _ outcome: Outcome, detail: String = "") {
        self.kind = kind
        self.outcome = outcome
        self.detail = detail
    }

    public var name: String { kind.name }

    public var description: String {
        switch outcome {
        case .passed: "\(name): passed (\(detail))"
        case .failed: "\(name): FAILED (\(detail))"
        case .notChecked(let reason): "\(name): not checked (\(reason))"
        }
    }
}
