import Packets

/// Counters for one direction of a connection, as `hapscope stats` reports them.
public struct TCPDirectionStatistics: Hashable, Sendable {
    /// Segments seen in this direction, with or without payload.
    public var packets = 0
    /// Payload bytes seen, retransmissions included.
    public var payloadBytes = 0
    /// Bytes handed to the delegate, each stream byte once.
    public var deliveredBytes = 0
    /// Segments whose payload had been delivered already.
    public var retransmissions = 0
    /// Segments that arrived ahead of a hole and were buffered.
    public var outOfOrderSegments = 0
    /// Segments that overlapped delivered or buffered data with different bytes.
    public var conflictingOverlaps = 0
    /// Holes that were never filled, and how many bytes they covered.
    public var gaps = 0
    public var gapBytes: UInt64 = 0
    /// Bytes discarded because a buffering limit was reached.
    public var bytesDroppedByLimit = 0

    public init() {}
}

/// One TCP connection as the reassembler follows it.
public final class TCPConnection {
    /// 1-based, in the order connections were first seen (Wireshark's `tcp.stream` + 1).
    public let id: Int
    public let client: Endpoint
    public let server: Endpoint
    public let firstPacket: PacketInfo
    /// Whether the SYN was captured, so the client and server roles are known for certain.
    public internal(set) var handshakeSeen: Bool
    public internal(set) var lastPacket: PacketInfo
    public internal(set) var clientToServer = TCPDirectionStatistics()
    public internal(set) var serverToClient = TCPDirectionStatistics()

    public init(id: Int, client: Endpoint, server: Endpoint, firstPacket: PacketInfo, handshakeSeen: Bool) {
        self.id = id
        self.client = client
        self.server = server
        self.firstPacket = firstPacket
        self.lastPacket = firstPacket
        self.handshakeSeen = handshakeSeen
    }

    public func statistics(_ direction: TCPDirection) -> TCPDirectionStatistics {
        direction == .clientToServer ? clientToServer : serverToClient
    }

    public func source(of direction: TCPDirection) -> Endpoint {
        direction == .clientToServer ? client : server
    }
}
