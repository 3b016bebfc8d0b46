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
        sourcePort = try cursor.readUInt16BigEndian("the TCP source port")
        destinationPort = try cursor.readUInt16BigEndian("the TCP destination port")
        sequenceNumber = try cursor.readUInt32BigEndian("the TCP sequence number")
        acknowledgmentNumber = try cursor.readUInt32BigEndian("the TCP acknowledgment number")
        let dataOffsetPosition = cursor.position
        let dataOffset = try cursor.readUInt8("the TCP data offset")
        headerLength = Int(dataOffset >> 4) * 4
        guard headerLength >= Self.minimumLength else {
            throw cursor.malformed("a TCP data offset of at least 20 bytes, found \(headerLength)", at: dataOffsetPosition)
        }
        guard headerLength <= segmentLength else {
            throw cursor.malformed(
                "a TCP data offset within the \(segmentLength) bytes the IP length leaves, found \(headerLength)",
                at: dataOffsetPosition)
        }
        flags = TCPFlags(rawValue: try cursor.readUInt8("the TCP flags"))
        window = try cursor.readUInt16BigEndian("the TCP window")
        try cursor.skip(count: 4, "the TCP checksum and urgent pointer")
        try cursor.skip(count: headerLength - Self.minimumLength, "the TCP options the data offset announces")
    }
}
