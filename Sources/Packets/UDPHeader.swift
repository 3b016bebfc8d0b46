import WireParsing

/// A UDP header (RFC 768): `source port (2) | destination port (2) | length (2) | checksum (2)`.
struct UDPHeader {
    static let length = 8

    let sourcePort: UInt16
    let destinationPort: UInt16
    /// Header plus payload, in bytes.
    let datagramLength: Int
    let checksum: UInt16

    /// Reads the header of a datagram carried in `ipPayloadLength` bytes (as the IP length
    /// announces them) from a cursor over the captured part of it. The UDP length may be
    /// shorter than the IP payload (the rest is ignored) but not longer.
    init(parsing cursor: inout ByteCursor, ipPayloadLength: Int) throws(DecodeError) {
        guard ipPayloadLength >= Self.length else {
            throw cursor.malformed("a UDP header of 8 bytes within the \(ipPayloadLength) bytes the IP length leaves")
        }
        let start = cursor.position
        let fixed = try cursor.read(count: Self.length, "a UDP header")
        sourcePort = fixed.bigEndian(at: 0)
        destinationPort = fixed.bigEndian(at: 2)
        datagramLength = Int(fixed.bigEndian(UInt16.self, at: 4))
        guard datagramLength >= Self.length else {
            throw cursor.malformed("a UDP length of at least the 8-byte header, found \(datagramLength)", at: start + 4)
        }
        guard datagramLength <= ipPayloadLength else {
            throw cursor.malformed(
                "a UDP length within the \(ipPayloadLength) bytes the IP length leaves, found \(datagramLength)", at: start + 4)
        }
        checksum = fixed.bigEndian(at: 6)
    }
}
