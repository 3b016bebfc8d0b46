/// How reports show an item: a stable field name and a one-line value.
extension TLV8Item {
    /// A stable machine name, like Wireshark's filter names: `state`, `publicKey`, `type0x2a`.
    public var fieldName: String { type.fieldName }

    /// The value in one line, read as its pairing type: `M2`, `PairSetupWithAuth (1)`,
    /// `Authentication (2)`, `Transient | Split (0x01000010)`, `Admin (1)`, `"11:22:33:44:55:66"`,
    /// `384 bytes 4a1f…9c02`. A value that does not fit its type shows as bytes.
    public var displayValue: String {
        switch type {
        case .state where value.count == 1:
            PairingState(rawValue: value[0])?.description ?? namedValueDescription(nil, value[0])
        case .method where value.count == 1:
            PairingMethod(rawValue: value[0]).description
        case .error where value.count == 1:
            PairingErrorCode(rawValue: value[0]).description
        case .permissions where value.count == 1:
            PairingPermissions(rawValue: value[0]).description
        case .flags where (1 ... 4).contains(value.count):
            PairingFlags(rawValue: UInt32(littleEndianInteger() ?? 0)).description
        case .retryDelay where (1 ... 8).contains(value.count):
            "\(littleEndianInteger() ?? 0) s"
        case .identifier where PairingIdentifier(bytes: value).string != nil:
            PairingIdentifier(bytes: value).description
        case .separator where value.isEmpty:
            "—"
        default:
            ByteSummary.describe(value)
        }
    }
}
