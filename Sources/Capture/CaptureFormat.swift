
/// The file formats hapscope reads, told apart by their first bytes.
public enum CaptureFormat: Hashable, Sendable, CustomStringConvertible {
    /// libpcap's format, either byte order, micro- or nanosecond timestamps (read by `CaptureFileReader`).
    case pcap
    /// pcapng: a Section Header Block first (read by `CaptureFileReader`).
    case pcapng
    /// btsnoop (`BTSnoopFileReader`).
    case btsnoop
    /// Apple PacketLogger (`PacketLoggerFileReader`).
    case packetLogger

    /// Bytes `detect(prefix:)` needs to decide.
    public static let prefixLength = 16

    /// The format whose magic number `prefix` starts with. PacketLogger files have none; they
    /// are recognised as Wireshark does, by a first record whose length (either byte order) is
    /// 8 to 65,535, whose microseconds are below a second and whose type byte is one
    /// PacketLogger writes.
    public static func detect(prefix: some Collection<UInt8>) -> CaptureFormat? {
        let bytes = Array(prefix.prefix(prefixLength))
        guard bytes.count >= 4 else { return nil }
        let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        switch magic {
        case 0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1: return .pcap
        case 0x0A0D_0D0A: return .pcapng
        default: break
        }
        if bytes.starts(with: BTSnoopFileReader.magic) { return .btsnoop }
        guard bytes.count >= PacketLoggerFileReader.recordHeaderLength + 1 else { return nil }
        let bigEndian = PacketLoggerFileReader.isBigEndian(firstLength: bytes)
        func word(_ offset: Int) -> UInt32 {
            let value = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return bigEndian ? value.byteSwapped : value
        }
        let length = word(0)
        guard (8 ..< 65_536).contains(length), word(8) < 1_000_000 else { return nil }
        guard length == 8 || PacketLoggerFileReader.RecordType.known.contains(bytes[12]) else { return nil }
        return .packetLogger
    }

    /// The format of the file at `path`; nil when its first bytes match none.
    public static func detect(file path: String) throws(CaptureError) -> CaptureFormat? {
        let source = try CaptureByteSource(file: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: prefixLength, alignment: 1)
        defer { buffer.deallocate() }
        let count = try source.fill(buffer.baseAddress!, count: prefixLength)
        return detect(prefix: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }

    public var description: String {
        switch self {
        case .pcap: "pcap"
        case .pcapng: "pcapng"
        case .btsnoop: "btsnoop"
        case .packetLogger: "PacketLogger"
        }
    }
}
