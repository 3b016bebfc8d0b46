import WireParsing

extension LimitName {
    public static let ipFragmentDatagrams = LimitName("ip.fragment-datagrams")
    public static let ipFragmentBytes = LimitName("ip.fragment-bytes")
    public static let ipFragmentsPerDatagram = LimitName("ip.fragments-per-datagram")
}

/// Bounds on IP fragment reassembly, which an attacker (or a lossy capture) can otherwise make
/// hold memory for ever.
public struct FragmentReassemblyLimits: Hashable, Sendable {
    /// Datagrams waiting for fragments at once; when a new one would exceed it, the oldest is
    /// dropped. The datagram being started is always admitted, so zero acts as one.
    public var maximumPendingDatagrams: Int
    /// Buffer bytes held for waiting datagrams; when a fragment would exceed it, the oldest
    /// datagrams are dropped.
    public var maximumPendingBytes: Int
    /// Fragments accepted for one datagram: bounds the work one datagram can cause.
    public var maximumFragmentsPerDatagram: Int
    /// How long, in capture time, a datagram may wait for its missing fragments after its first
    /// fragment arrived. Linux waits 30 s (`ipfrag_time`); RFC 8200 §4.5 says 60 s for IPv6.
    public var timeout: Duration

    public init(
        maximumPendingDatagrams: Int = 1024, maximumPendingBytes: Int = 16 << 20,
        maximumFragmentsPerDatagram: Int = 128, timeout: Duration = .seconds(30)
    ) {
        self.maximumPendingDatagrams = maximumPendingDatagrams
        self.maximumPendingBytes = maximumPendingBytes
        self.maximumFragmentsPerDatagram = maximumFragmentsPerDatagram
        self.timeout = timeout
    }
}
