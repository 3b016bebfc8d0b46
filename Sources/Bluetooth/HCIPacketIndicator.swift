/// The packet type of an HCI packet: the H4 (UART transport) indicator byte.
///
/// Core Vol 4 Part A §2: 0x01 command, 0x02 ACL data, 0x03 synchronous (SCO) data, 0x04 event,
/// 0x05 ISO data. Any other byte is kept, so that a capture of a vendor transport still reads.
public struct HCIPacketIndicator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let command = HCIPacketIndicator(rawValue: 0x01)
    public static let aclData = HCIPacketIndicator(rawValue: 0x02)
    public static let synchronousData = HCIPacketIndicator(rawValue: 0x03)
    public static let event = HCIPacketIndicator(rawValue: 0x04)
    public static let isoData = HCIPacketIndicator(rawValue: 0x05)

    public var isKnown: Bool { (0x01 ... 0x05).contains(rawValue) }

    public var description: String {
        switch self {
        case .command: "command"
        case .aclData: "ACL data"
        case .synchronousData: "SCO data"
        case .event: "event"
        case .isoData: "ISO data"
        default: "packet type 0x\(String(rawValue, radix: 16))"
        }
    }
}
