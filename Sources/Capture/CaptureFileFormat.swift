/// What a file is, told by its first bytes: one of the capture formats hapscope reads, or
/// something else.
public enum CaptureFileFormat: Sendable, Hashable {
    /// libpcap's format, in either byte order, with microsecond or nanosecond timestamps.
    case pcap
    /// pcapng: a Section Header Block first.
    case pcapng

    /// The format whose magic number `bytes` start with; nil for anything else.
    public init?(magic bytes: some Collection<UInt8>) {
        let prefix = Array(bytes.prefix(4))
        switch prefix {
        case [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D]: self = .pcap
        case [0x0A, 0x0D, 0x0D, 0x0A]: self = .pcapng
        default: return nil
        }
    }
}
