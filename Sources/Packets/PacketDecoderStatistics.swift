import WireParsing

/// What `PacketDecoder` counted beyond the packets it returned: fragment reassembly and,
/// when enabled, checksums.
public struct PacketDecoderStatistics: Hashable, Sendable {
    /// IP fragments accepted into reassembly.
    public var fragments = 0
    /// Datagrams completed from fragments.
    public var reassembledDatagrams = 0
    /// Fragments that brought no new bytes: exact repeats, or pieces of what was held already.
    public var duplicateFragments = 0
    /// Datagrams dropped because two fragments disagreed about the same bytes.
    public var datagramsDiscardedForConflictingOverlap = 0
    /// Datagrams dropped because they waited longer than the timeout, or the input ended.
    public var datagramsExpired = 0
    /// Datagrams dropped to stay within the pending-datagram or pending-byte limits, or
    /// because they exceeded the per-datagram fragment limit, by the limit that dropped them.
    public var datagramsDroppedByLimit: [LimitName: Int] = [:]
    /// Wrong IPv4 header checksums (counted only when checksums are verified).
    public var badIPv4HeaderChecksums = 0
    /// Wrong TCP checksums, for segments captured whole (counted only when checksums are verified).
    public var badTCPChecksums = 0
    /// Wrong UDP checksums, for datagrams captured whole, including a zero checksum over IPv6
    /// (RFC 8200 §8.1) (counted only when checksums are verified).
    public var badUDPChecksums = 0

    public init() {}
}
