import Packets

/// The end of a HAP connection, with its counters.
public struct ConnectionSummary: Sendable {
    public let connection: ConnectionInfo
    public let deviceID: String?
    public let reason: ConnectionCloseReason
    public let handshakeSeen: Bool
    public let firstPacket: PacketInfo
    public let lastPacket: PacketInfo
    /// TCP counters per HAP direction (HAP over IP).
    public let tcp: [HAPDirection: TCPCounters]
    /// Encrypted frames per direction, when the session was encrypted.
    public let frames: [HAPDirection: FrameStatistics]
    public let encrypted: Bool
    /// Directions whose frames were decrypted.
    public let decrypted: Set<HAPDirection>
    public let httpMessages: Int

    public init(
        connection: ConnectionInfo, deviceID: String?, reason: ConnectionCloseReason, handshakeSeen: Bool,
        firstPacket: PacketInfo, lastPacket: PacketInfo, tcp: [HAPDirection: TCPCounters],
        frames: [HAPDirection: FrameStatistics], encrypted: Bool, decrypted: Set<HAPDirection>, httpMessages: Int
    ) {
        self.connection = connection
        self.deviceID = deviceID
        self.reason = reason
        self.handshakeSeen = handshakeSeen
        self.firstPacket = firstPacket
        self.lastPacket = lastPacket
        self.tcp = tcp
        self.frames = frames
        self.encrypted = encrypted
        self.decrypted = decrypted
        self.httpMessages = httpMessages
    }

    /// A copy of the reassembler's counters, so that consumers need not import TCPReassembly.
    public struct TCPCounters: Sendable, Hashable {
        public var packets: Int
        public var payloadBytes: Int
        public var retransmissions: Int
        public var outOfOrderSegments: Int
        public var conflictingOverlaps: Int
        public var gaps: Int
        public var gapBytes: UInt64
        public var bytesDroppedByLimit: Int

        public init(
            packets: Int, payloadBytes: Int, retransmissions: Int, outOfOrderSegments: Int, conflictingOverlaps: Int,
            gaps: Int, gapBytes: UInt64, bytesDroppedByLimit: Int
        ) {
            self.packets = packets
            self.payloadBytes = payloadBytes
            self.retransmissions = retransmissions
            self.outOfOrderSegments = outOfOrderSegments
            self.conflictingOverlaps = conflictingOverlaps
            self.gaps = gaps
            self.gapBytes = gapBytes
            self.bytesDroppedByLimit = bytesDroppedByLimit
        }
    }
}
