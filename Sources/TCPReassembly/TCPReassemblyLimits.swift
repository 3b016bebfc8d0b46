import WireParsing

extension LimitName {
    public static let tcpConnections = LimitName("tcp.connections")
    public static let tcpBufferedBytesPerDirection = LimitName("tcp.buffered-bytes-per-direction")
    public static let tcpBufferedBytes = LimitName("tcp.buffered-bytes")
    public static let tcpOutOfOrderSegments = LimitName("tcp.out-of-order-segments")
    public static let tcpIdleTimeout = LimitName("tcp.idle-timeout")
    public static let tcpClosedRetention = LimitName("tcp.closed-retention")
}

/// Bounds on what the reassembler holds, so that memory stays bounded whatever the capture
/// contains: millions of connections, or endless data behind a hole that never fills.
///
/// Each bound, when reached, is counted in `TCPReassemblyStatistics`; a bound on buffered
/// bytes never discards data silently: the reassembler stops waiting for the oldest hole,
/// reports it as a gap and delivers what it held (see docs/reassembly.md).
public struct TCPReassemblyLimits: Hashable, Sendable {
    /// Connections tracked at once, closed ones awaiting their last packets included. When a
    /// new connection needs room, the least recently active closed connection is forgotten,
    /// or else the least recently active open one is closed with `.evicted`. At least 1.
    public var maximumConnections: Int
    /// Out-of-order bytes held for one direction of one connection.
    public var maximumBufferedBytesPerDirection: Int
    /// Out-of-order bytes held for all connections together.
    public var maximumBufferedBytes: Int
    /// Out-of-order ranges held for one direction; a segment stored around data already held
    /// counts once per stored piece. Bounds the work each new out-of-order segment costs.
    public var maximumOutOfOrderSegmentsPerDirection: Int
    /// An open connection with no packet for this long, in capture time, is closed with
    /// `.idleTimeout`. HAP controllers keep connections open for hours between events, so the
    /// default is long: two hours, the keep-alive interval of RFC 1122 §4.2.3.6.
    public var idleTimeout: Duration
    /// How long a connection closed by FIN or RST is remembered, so that its last ACKs and
    /// retransmitted FINs are not taken for a new connection: 60 s, Linux's TIME-WAIT.
    public var closedConnectionRetention: Duration

    public init(
        maximumConnections: Int = 32_768,
        maximumBufferedBytesPerDirection: Int = 1 << 20,
        maximumBufferedBytes: Int = 64 << 20,
        maximumOutOfOrderSegmentsPerDirection: Int = 1_024,
        idleTimeout: Duration = .seconds(7_200),
        closedConnectionRetention: Duration = .seconds(60)
    ) {
        self.maximumConnections = maximumConnections
        self.maximumBufferedBytesPerDirection = maximumBufferedBytesPerDirection
        self.maximumBufferedBytes = maximumBufferedBytes
        self.maximumOutOfOrderSegmentsPerDirection = maximumOutOfOrderSegmentsPerDirection
        self.idleTimeout = idleTimeout
        self.closedConnectionRetention = closedConnectionRetention
    }
}
