/// The event code of an HCI event packet (Core Vol 4 Part E §7.7).
public struct HCIEventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let disconnectionComplete = HCIEventCode(rawValue: 0x05)
    public static let encryptionChange = HCIEventCode(rawValue: 0x08)
    public static let commandComplete = HCIEventCode(rawValue: 0x0E)
    public static let commandStatus = HCIEventCode(rawValue: 0x0F)
    public static let numberOfCompletedPackets = HCIEventCode(rawValue: 0x13)
    public static let encryptionKeyRefreshComplete = HCIEventCode(rawValue: 0x30)
    public static let leMeta = HCIEventCode(rawValue: 0x3E)
    /// Encryption Change v2: v1 plus the key size.
    public static let encryptionChangeV2 = HCIEventCode(rawValue: 0x59)
    public static let vendorSpecific = HCIEventCode(rawValue: 0xFF)

    public var name: String? {
        switch self {
        case .disconnectionComplete: "Disconnection Complete"
        case .encryptionChange: "Encryption Change"
        case .commandComplete: "Command Complete"
        case .commandStatus: "Command Status"
        case .numberOfCompletedPackets: "Number Of Completed Packets"
        case .encryptionKeyRefreshComplete: "Encryption Key Refresh Complete"
        case .leMeta: "LE Meta"
        case .encryptionChangeV2: "Encryption Change v2"
        case .vendorSpecific: "Vendor Specific"
        default: nil
        }
    }

    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 2)
        return name.map { "\($0) (\(hex))" } ?? "event \(hex)"
    }
}
