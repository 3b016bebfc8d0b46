import WireParsing

/// The fixed 40-byte IPv6 header (RFC 8200 §3).
struct IPv6Header {
    static let length = 40

    /// Bytes after this header, extension headers included.
    let payloadLength: Int
    let nextHeader: IPProtocol
    let hopLimit: UInt8
    let source: IPAddress
    let destination: IPAddress

    init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let versionClassAndFlow = try cursor.readUInt32BigEndian("the IPv6 version, traffic class and flow label")
        guard versionClassAndFlow >> 28 == 6 else {
            throw cursor.malformed("IP version 6, found \(versionClassAndFlow >> 28)", at: start)
        }
        payloadLength = Int(try cursor.readUInt16BigEndian("the IPv6 payload length"))
        nextHeader = IPProtocol(rawValue: try cursor.readUInt8("the IPv6 next header"))
        hopLimit = try cursor.readUInt8("the IPv6 hop limit")
        source = try Self.readAddress(&cursor, "the IPv6 source address")
        destination = try Self.readAddress(&cursor, "the IPv6 destination address")
    }

    private static func readAddress(_ cursor: inout ByteCursor, _ what: String) throws(DecodeError) -> IPAddress {
        let bytes = try cursor.read(count: 16, what)
        return .v6(
            high: UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            low: UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
}
