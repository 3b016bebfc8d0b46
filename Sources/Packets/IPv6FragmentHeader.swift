import WireParsing

/// The IPv6 fragment header (RFC 8200 §4.5):
/// `next header (1) | reserved (1) | offset (13 bits) · reserved (2) · M (1) | identification (4)`.
struct IPv6FragmentHeader {
    static let length = 8

    /// The type of the fragmentable part's first header; only the first fragment's counts.
    let nextHeader: IPProtocol
    /// Where this fragment sits in the fragmentable part, in bytes.
    let fragmentOffset: Int
    let moreFragments: Bool
    let identification: UInt32

    /// An atomic fragment (RFC 6946) is a whole datagram that happens to carry the header.
    var isAtomic: Bool { fragmentOffset == 0 && !moreFragments }

    /// Reads the header; `payloadRemaining` is what the IPv6 payload length leaves from its
    /// first byte on.
    init(parsing cursor: inout ByteCursor, payloadRemaining: Int) throws(DecodeError) {
        guard payloadRemaining >= Self.length else {
            throw cursor.malformed("an 8-byte IPv6 fragment header within the \(payloadRemaining) bytes the payload length leaves")
        }
        let fixed = try cursor.read(count: Self.length, "an 8-byte IPv6 fragment header")
        nextHeader = IPProtocol(rawValue: fixed.bigEndian(at: 0))
        let offsetAndFlags = fixed.bigEndian(UInt16.self, at: 2)
        fragmentOffset = Int(offsetAndFlags >> 3) * 8
        moreFragments = offsetAndFlags & 0x0001 != 0
        identification = fixed.bigEndian(at: 4)
    }
}
