import WireParsing

/// A TCP header (RFC 9293 §3.1). Options are skipped whole; the data offset covers them.
///
/// TCP has no length of its own: the segment is what the IP length leaves after the IP
/// headers. A header that does not fit in that length is malformed; one that fits but was not
/// captured whole is truncated.
struct TCPHeader {
    static let minimumLength = 20

    let sourcePort: UInt16
    let destinationPort: UInt16
    let sequenceNumber: UInt32
    let acknowledgmentNumber: UInt32
    /// Header length in bytes, options included.
    let headerLength: Int
    let flags: TCPFlags
    let window: UInt16

    /// Reads the header of a segment of `segmentLength` bytes (header and data, as the IP
    /// length announces them) from a cursor over the captured part of it.
    init(parsing cursor: inout ByteCursor, segmentLength: Int) throws(DecodeError) {
        guard segmentLength >= Self.minimumLength else {
            throw cursor.malformed("a TCP header of at least 20 bytes within the \(segmentLength) bytes the IP length leaves")
        }
        let start = cursor.position
        let fixed = try cursor.read(count: Self.minimumLength, "a TCP header")
        sourcePort = fixed.bigEndian(at: 0)
        destinationPort = fixed.bigEndian(at: 2)
        sequenceNumber = fixed.bigEndian(at: 4)
        acknowledgmentNumber = fixed.bigEndian(at: 8)
        headerLength = Int(fixed.bigEndian(UInt8.self, at: 12) >> 4) * 4
        guard headerLength >= Self.minimumLength else {
            throw cursor.malformed("a TCP data offset of at least 20 bytes, found \(headerLength)", at: start + 12)
        }
        guard headerLength <= segmentLength else {
            throw cursor.malformed(
                "a TCP data offset within the \(segmentLength) bytes the IP length leaves, found \(headerLength)", at: start + 12)
        }
        flags = TCPFlags(rawValue: fixed.bigEndian(at: 13))
        window = fixed.bigEndian(at: 14)
        if headerLength > Self.minimumLength {
            try cursor.skip(count: headerLength - Self.minimumLength, "the TCP options the data offset announces")
        }
    }
}
