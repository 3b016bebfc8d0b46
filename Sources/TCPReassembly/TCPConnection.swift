import Packets

/// Counters for one direction of a connection, as `hapscope stats` reports them.
///
/// Across a direction's life, `deliveredBytes + gapBytes` is the length of the stream from
/// its first byte to the last byte delivered or skipped.
public struct TCPDirectionStatistics: Hashable, Sendable {
    /// Segments seen in this direction, with or without payload.
    public var packets = 0
    /// Payload bytes seen, retransmissions included, counting the bytes a snap length cut off.
    public var payloadBytes = 0
    /// Bytes handed to the delegate, each stream byte once.
    public var deliveredBytes = 0
    /// Segments carrying bytes received before (delivered or buffered), wholly or in part;
    /// only the bytes not seen before are used.
    public var retransmissions = 0
    /// Segments that arrived ahead of a hole and were buffered.
    public var outOfOrderSegments = 0
    /// Segments that overlapped buffered data with different bytes; the buffered bytes, the
    /// first received, were kept. Delivered bytes are not retained, so overlaps with them are
    /// counted as retransmissions but not compared.
    public var conflictingOverlaps = 0
    /// Holes that were never filled, and how many bytes they covered.
    public var gaps = 0
    public var gapBytes: UInt64 = 0
    /// Of `gapBytes`, the bytes skipped because a buffering limit ended the wait for a hole to
    /// fill, rather than because the capture shows them lost.
    public var bytesDroppedByLimit = 0
    /// Payload bytes beyond the sender's FIN, or sent after the connection closed; never
    /// delivered.
    public var bytesBeyondStreamEnd = 0

    public init() {}
}

/// One TCP connection as the reassembler follows it.
public final class TCPConnection {
    /// 1-based, in the order connections were first seen (Wireshark's `tcp.stream` + 1).
    public let id: Int
    public let client: Endpoint
    public let server: Endpoint
    public let firstPacket: PacketInfo
    /// Whether the SYN or SYN-ACK was captured, so the client and server roles are known for
    /// certain rather than guessed.
    public internal(set) var handshakeSeen: Bool
    /// Why the connection ended, once it has.
    public internal(set) var closeReason: TCPCloseReason?

    /// What changes with every segment, written in one assignment per segment.
    struct Progress {
        var lastPacket: PacketInfo
        var clientToServer = TCPDirectionStatistics()
        var serverToClient = TCPDirectionStatistics()
        var clientToServerOrigin: UInt32?
        var serverToClientOrigin: UInt32?
    }

    var progress: Progress

    public internal(set) var lastPacket: PacketInfo {
        get { progress.lastPacket }
        set { progress.lastPacket = newValue }
    }

    /// Up to date after each segment, and final when `tcpConnectionClosed` is called.
    public internal(set) var clientToServer: TCPDirectionStatistics {
        get { progress.clientToServer }
        set { progress.clientToServer = newValue }
    }

    public internal(set) var serverToClient: TCPDirectionStatistics {
        get { progress.serverToClient }
        set { progress.serverToClient = newValue }
    }

    public init(id: Int, client: Endpoint, server: Endpoint, firstPacket: PacketInfo, handshakeSeen: Bool) {
        self.id = id
        self.client = client
        self.server = server
        self.firstPacket = firstPacket
        self.handshakeSeen = handshakeSeen
        self.progress = Progress(lastPacket: firstPacket)
    }

    public func statistics(_ direction: TCPDirection) -> TCPDirectionStatistics {
        direction == .clientToServer ? clientToServer : serverToClient
    }

    /// The sequence number of stream offset 0 in `direction` (the byte after the SYN, or the first
    /// byte seen mid-stream), once known: what a tool needs to rewrite the stream's packets.
    public func streamOrigin(_ direction: TCPDirection) -> UInt32? {
        direction == .clientToServer ? progress.clientToServerOrigin : progress.serverToClientOrigin
    }

    public func source(of direction: TCPDirection) -> Endpoint {
        direction == .clientToServer ? client : server
    }

    /// The direction in which `source` sends.
    public func direction(from source: Endpoint) -> TCPDirection {
        source == client ? .clientToServer : .serverToClient
    }
}
