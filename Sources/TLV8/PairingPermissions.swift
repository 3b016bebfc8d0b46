import WireParsing

/// A controller's permissions (HAP: `kTLVType_Permissions`): 0 for a regular user, bit 0 for
/// an admin, who may add, remove and list pairings. HomeKitADK rejects any other bit; they are
/// kept here so reports can show them.
public struct PairingPermissions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let regularUser: PairingPermissions = []
    public static let admin = PairingPermissions(rawValue: 0x01)

    /// The bits HAP does not define.
    public var undefinedBits: UInt8 { rawValue & ~Self.admin.rawValue }

    /// The role and value, as reports show it: `Regular user (0)`, `Admin (1)`, and undefined
    /// bits as hex masks: `Admin | 0x80 (129)`.
    public var description: String {
        var parts = [contains(.admin) ? "Admin" : "Regular user"]
        var remaining = undefinedBits
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            parts.append("0x" + Hex.encode(CollectionOfOne(bit)))
            remaining &= ~bit
        }
        return "\(parts.joined(separator: " | ")) (\(rawValue))"
    }
}
