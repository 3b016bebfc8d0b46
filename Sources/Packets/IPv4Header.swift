import WireParsing

/// An IPv4 header with its options (RFC 791 §3.1).
///
/// The parser checks what the header says about itself: version 4, a header length of at
/// least 20 bytes, and a total length no smaller than the header. Options are skipped whole;
/// their bytes are covered by the header length.
struct IPv4Header {
    static let minimumLength = 20

    /// Header length in bytes, options included.
    let headerLength: Int
    /// Header plus payload, in bytes, as the sender sent it.
    let totalLength: Int
    let identification: UInt16
    let dontFragment: Bool
    let moreFragments: Bool
    /// Where this fragment's payload sits in the datagram's payload, in bytes.
    let fragmentOffset: Int
    let timeToLive: UInt8
    let ipProtocol: IPProtocol
    let source: IPAddress
    let destination: IPAddress

    var payloadLength: Int { totalLength - headerLength }
    /// Whether this packet is part of a larger datagram (RFC 791: MF set or a non-zero offset).
    var isFragment: Bool { moreFragments || fragmentOffset != 0 }

    init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let fixed = try cursor.read(count: Self.minimumLength, "an IPv4 header")
        let versionAndLength = fixed.bigEndian(UInt8.self, at: 0)
        guard versionAndLength >> 4 == 4 else {
            throw cursor.malformed("IP version 4, found \(versionAndLength >> 4)", at: start)
        }
        headerLength = Int(versionAndLength & 0x0F) * 4
        guard headerLength >= Self.minimumLength else {
            throw cursor.malformed("an IPv4 header length of at least 20 bytes, found \(headerLength)", at: start)
        }
        totalLength = Int(fixed.bigEndian(UInt16.self, at: 2))
        guard totalLength >= headerLength else {
            throw cursor.malformed(
                "an IPv4 total length of at least the \(headerLength)-byte header, found \(totalLength)", at: start + 2)
        }
        identification = fixed.bigEndian(at: 4)
        let flagsAndOffset = fixed.bigEndian(UInt16.self, at: 6)
        dontFragment = flagsAndOffset & 0x4000 != 0
        moreFragments = flagsAndOffset & 0x2000 != 0
        fragmentOffset = Int(flagsAndOffset & 0x1FFF) * 8
        timeToLive = fixed.bigEndian(at: 8)
        ipProtocol = IPProtocol(rawValue: fixed.bigEndian(at: 9))
        source = .v4(fixed.bigEndian(at: 12))
        destination = .v4(fixed.bigEndian(at: 16))
        if headerLength > Self.minimumLength {
            try cursor.skip(count: headerLength - Self.minimumLength, "the IPv4 options the header length announces")
        }
    }
}
