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
        let fixed = try cursor.read(count: Self.length, "the 40-byte IPv6 header")
        let version = fixed.bigEndian(UInt8.self, at: 0) >> 4
        guard version == 6 else {
            throw cursor.malformed("IP version 6, found \(version)", at: start)
        }
        payloadLength = Int(fixed.bigEndian(UInt16.self, at: 4))
        nextHeader = IPProtocol(rawValue: fixed.bigEndian(at: 6))
        hopLimit = fixed.bigEndian(at: 7)
        source = .v6(high: fixed.bigEndian(at: 8), low: fixed.bigEndian(at: 16))
        destination = .v6(high: fixed.bigEndian(at: 24), low: fixed.bigEndian(at: 32))
    }
}
