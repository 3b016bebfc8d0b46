/// An HCI command opcode: a 6-bit group (OGF) and a 10-bit command (OCF), sent little-endian
/// (Core Vol 4 Part E §5.4.1).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(group: UInt8, command: UInt16) {
        rawValue = UInt16(group & 0x3F) << 10 | command & 0x03FF
    }

    /// The opcode group field (OGF): 0x01 link control, 0x03 controller, 0x08 LE, 0x3F vendor.
    public var group: UInt8 { UInt8(rawValue >> 10) }
    /// The opcode command field (OCF).
    public var command: UInt16 { rawValue & 0x03FF }

    // The commands the analysis meets on an LE link (Core Vol 4 Part E §7).
    public static let disconnect = HCIOpcode(group: 0x01, command: 0x0006)
    public static let reset = HCIOpcode(group: 0x03, command: 0x0003)
    public static let leSetAdvertisingParameters = HCIOpcode(group: 0x08, command: 0x0006)
    public static let leSetAdvertisingData = HCIOpcode(group: 0x08, command: 0x0008)
    public static let leSetScanResponseData = HCIOpcode(group: 0x08, command: 0x0009)
    public static let leSetAdvertisingEnable = HCIOpcode(group: 0x08, command: 0x000A)
    public static let leSetScanParameters = HCIOpcode(group: 0x08, command: 0x000B)
    public static let leSetScanEnable = HCIOpcode(group: 0x08, command: 0x000C)
    public static let leCreateConnection = HCIOpcode(group: 0x08, command: 0x000D)
    public static let leConnectionUpdate = HCIOpcode(group: 0x08, command: 0x0013)
    public static let leStartEncryption = HCIOpcode(group: 0x08, command: 0x0019)
    public static let leLongTermKeyRequestReply = HCIOpcode(group: 0x08, command: 0x001A)
    public static let leSetDataLength = HCIOpcode(group: 0x08, command: 0x0022)
    public static let leSetExtendedAdvertisingData = HCIOpcode(group: 0x08, command: 0x0037)
    public static let leSetExtendedScanResponseData = HCIOpcode(group: 0x08, command: 0x0038)
    public static let leExtendedCreateConnection = HCIOpcode(group: 0x08, command: 0x0043)

    public var name: String? {
        switch self {
        case .disconnect: "Disconnect"
        case .reset: "Reset"
        case .leSetAdvertisingParameters: "LE Set Advertising Parameters"
        case .leSetAdvertisingData: "LE Set Advertising Data"
        case .leSetScanResponseData: "LE Set Scan Response Data"
        case .leSetAdvertisingEnable: "LE Set Advertising Enable"
        case .leSetScanParameters: "LE Set Scan Parameters"
        case .leSetScanEnable: "LE Set Scan Enable"
        case .leCreateConnection: "LE Create Connection"
        case .leConnectionUpdate: "LE Connection Update"
        case .leStartEncryption: "LE Enable Encryption"
        case .leLongTermKeyRequestReply: "LE Long Term Key Request Reply"
        case .leSetDataLength: "LE Set Data Length"
        case .leSetExtendedAdvertisingData: "LE Set Extended Advertising Data"
        case .leSetExtendedScanResponseData: "LE Set Extended Scan Response Data"
        case .leExtendedCreateConnection: "LE Extended Create Connection"
        default: nil
        }
    }

    /// `LE Set Advertising Data (0x2008)`, or `opcode 0x0c45 (OGF 0x03, OCF 0x045)`.
    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 4)
        if let name { return "\(name) (\(hex))" }
        return "opcode \(hex) (OGF 0x\(String(group, radix: 16)), OCF 0x\(String(command, radix: 16)))"
    }
}

extension String {
    /// The string with zeros in front up to `width` characters: hex fields of fixed width.
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
