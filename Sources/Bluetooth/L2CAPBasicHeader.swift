import WireParsing

/// The header of an L2CAP basic frame (B-frame, Core Vol 3 Part A §3.1): the payload length
/// (2) and the channel identifier (2), both little-endian. The payload follows.
///
/// The cursor holds one whole frame (an unfragmented ACL packet, or what `ACLReassembler`
/// joined); the length must cover exactly the bytes after the header.
public struct L2CAPBasicHeader: Hashable, Sendable {
    public static let length = 4

    public var payloadLength: Int
    public var channel: L2CAPChannel

    public init(payloadLength: Int, channel: L2CAPChannel) {
        self.payloadLength = payloadLength
        self.channel = channel
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        payloadLength = Int(try cursor.readUInt16LittleEndian("the length of an L2CAP header"))
        channel = L2CAPChannel(rawValue: try cursor.readUInt16LittleEndian("the channel of an L2CAP header"))
        try cursor.requireLength(payloadLength, of: "L2CAP payload", lengthAt: start)
    }
}

/// An L2CAP channel identifier (Core Vol 3 Part A §2.1): fixed channels below 0x0040,
/// dynamically allocated ones (LE credit-based channels) above.
public struct L2CAPChannel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// BR/EDR signalling.
    public static let signaling = L2CAPChannel(rawValue: 0x0001)
    public static let connectionless = L2CAPChannel(rawValue: 0x0002)
    /// The attribute protocol, where GATT and so HAP-BLE run.
    public static let attribute = L2CAPChannel(rawValue: 0x0004)
    public static let leSignaling = L2CAPChannel(rawValue: 0x0005)
    public static let securityManager = L2CAPChannel(rawValue: 0x0006)
    public static let brEDRSecurityManager = L2CAPChannel(rawValue: 0x0007)

    public var isDynamic: Bool { rawValue >= 0x0040 }

    public var description: String {
        switch self {
        case .signaling: "signalling"
        case .connectionless: "connectionless"
        case .attribute: "ATT"
        case .leSignaling: "LE signalling"
        case .securityManager: "SMP"
        case .brEDRSecurityManager: "BR/EDR SMP"
        default: "channel 0x\(String(rawValue, radix: 16).leftPadded(to: 4))"
        }
    }
}
