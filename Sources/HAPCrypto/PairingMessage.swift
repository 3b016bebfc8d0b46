/// The pairing messages that carry a sealed `EncryptedData` item or a signature, each sealed
/// under its own nonce label.
public enum PairingMessage: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HAP: Pair Setup M4, MFi-authenticated setups only.
    case pairSetupM4
    /// HAP: Pair Setup M5, the controller's long-term key and signature.
    case pairSetupM5
    /// HAP: Pair Setup M6, the accessory's long-term key and signature.
    case pairSetupM6
    /// HAP: Pair Verify M2, the accessory's pairing ID and signature.
    case pairVerifyM2
    /// HAP: Pair Verify M3, the controller's pairing ID and signature.
    case pairVerifyM3

    /// The 8-byte ASCII label that, after 4 zero bytes, forms the nonce.
    public var nonceLabel: String {
        switch self {
        case .pairSetupM4: "PS-Msg04"
        case .pairSetupM5: "PS-Msg05"
        case .pairSetupM6: "PS-Msg06"
        case .pairVerifyM2: "PV-Msg02"
        case .pairVerifyM3: "PV-Msg03"
        }
    }

    /// The 12-byte nonce its `EncryptedData` is sealed with: `00000000 ‖ label`.
    public var nonce: ChaCha20Poly1305.Nonce {
        switch self {
        case .pairSetupM4: PairingMessage.pairSetupM4Nonce
        case .pairSetupM5: PairingMessage.pairSetupM5Nonce
        case .pairSetupM6: PairingMessage.pairSetupM6Nonce
        case .pairVerifyM2: PairingMessage.pairVerifyM2Nonce
        case .pairVerifyM3: PairingMessage.pairVerifyM3Nonce
        }
    }

    public var description: String {
        switch self {
        case .pairSetupM4: "Pair Setup M4"
        case .pairSetupM5: "Pair Setup M5"
        case .pairSetupM6: "Pair Setup M6"
        case .pairVerifyM2: "Pair Verify M2"
        case .pairVerifyM3: "Pair Verify M3"
        }
    }

    // HAP: Pair Setup M4/M5/M6 and Pair Verify M2/M3 nonces (PROTOCOL §2.4, §3)
    private static let pairSetupM4Nonce = ChaCha20Poly1305.Nonce(label: "PS-Msg04")
    private static let pairSetupM5Nonce = ChaCha20Poly1305.Nonce(label: "PS-Msg05")
    private static let pairSetupM6Nonce = ChaCha20Poly1305.Nonce(label: "PS-Msg06")
    private static let pairVerifyM2Nonce = ChaCha20Poly1305.Nonce(label: "PV-Msg02")
    private static let pairVerifyM3Nonce = ChaCha20Poly1305.Nonce(label: "PV-Msg03")
}
