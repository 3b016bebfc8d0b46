/// Counters for the reassembler as a whole; per-connection counters are in
/// `TCPDirectionStatistics`. Each `…LimitHits` counter says how often the bound of the same
/// name in `TCPReassemblyLimits` was reached.
public struct TCPReassemblyStatistics: Hashable, Sendable {
    /// Segments handed to `process`.
    public var segments = 0
    /// Segments that matched no tracked connection and could not open one: without SYN and
    /// without payload (a pure ACK, FIN or RST of a connection seen too late or forgotten).
    public var segmentsWithoutConnection = 0
    public var connectionsOpened = 0
    /// Of `connectionsOpened`, those first seen without SYN or SYN-ACK, whose client and
    /// server were guessed.
    public var connectionsPickedUpMidStream = 0
    /// Open connections replaced by a new SYN on the same addresses and ports.
    public var portReuses = 0
    /// Open connections closed with `.idleTimeout`.
    public var idleTimeouts = 0
    /// Times a new connection found `maximumConnections` tracked and made room.
    public var connectionLimitHits = 0
    /// Of `connectionLimitHits`, those that closed an open connection with `.evicted` (the
    /// others forgot a connection that had already closed).
    public var connectionsEvicted = 0
    /// Times `maximumBufferedBytesPerDirection` made a direction skip a hole.
    public var bufferedBytesPerDirectionLimitHits = 0
    /// Times `maximumBufferedBytes` made a direction skip a hole.
    public var bufferedBytesLimitHits = 0
    /// Times `maximumOutOfOrderSegmentsPerDirection` made a direction skip a hole.
    public var outOfOrderSegmentsLimitHits = 0
    /// Out-of-order bytes held now, and the most held at once.
    public var bufferedBytes = 0
    public var peakBufferedBytes = 0
    /// Connections tracked now (closed ones awaiting their last packets included), and the
    /// most tracked at once.
    public var trackedConnections = 0
    public var peakTrackedConnections = 0

    public init() {}
}
