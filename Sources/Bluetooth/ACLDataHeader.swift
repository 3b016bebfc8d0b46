import WireParsing

/// The header of an HCI ACL data packet (Core Vol 4 Part E §5.4.2): the connection handle
/// (12 bits), the packet-boundary flag (2 bits) and the broadcast flag (2 bits) in one
/// little-endian word, then the data length (2). The fragment follows.
///
/// The cursor is positioned after the H4 indicator; the header checks that the data length
/// covers exactly the bytes that follow: fewer is truncated (the capture cut the packet), more
/// is malformed.
public struct ACLDataHeader: Hashable, Sendable {
    public static let length = 4

    public var handle: UInt16
    public var packetBoundary: PacketBoundary
    /// 0 point-to-point; 1 BR/EDR broadcast. LE uses 0.
    public var broadcastFlag: UInt8
    public var dataLength: Int

    /// Core Vol 4 Part E §5.4.2, Packet_Boundary_Flag.
    public struct PacketBoundary: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x03 }

        /// 0b00: the first fragment of a non-flushable L2CAP frame (host to controller; the
        /// only start flag an LE host sends).
        public static let firstNonFlushable = PacketBoundary(rawValue: 0b00)
        /// 0b01: a continuing fragment.
        public static let continuation = PacketBoundary(rawValue: 0b01)
        /// 0b10: the first fragment of a flushable frame (what an LE controller reports).
        public static let firstFlushable = PacketBoundary(rawValue: 0b10)
        /// 0b11: a complete L2CAP frame (BR/EDR, deprecated).
        public static let complete = PacketBoundary(rawValue: 0b11)

        public var isStart: Bool { self != .continuation }

        public var description: String {
            switch self {
            case .firstNonFlushable: "first (non-flushable)"
            case .continuation: "continuation"
            case .firstFlushable: "first (flushable)"
            default: "complete"
            }
        }
    }

    public init(handle: UInt16, packetBoundary: PacketBoundary, broadcastFlag: UInt8 = 0, dataLength: Int) {
        self.handle = handle
        self.packetBoundary = packetBoundary
        self.broadcastFlag = broadcastFlag
        self.dataLength = dataLength
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let word = try cursor.readUInt16LittleEndian("the handle and flags of an ACL header")
        handle = word & 0x0FFF
        packetBoundary = PacketBoundary(rawValue: UInt8(word >> 12 & 0x03))
        broadcastFlag = UInt8(word >> 14)
        dataLength = Int(try cursor.readUInt16LittleEndian("the data length of an ACL header"))
        try cursor.requireLength(dataLength, of: "ACL data", lengthAt: start + 2)
    }
}
