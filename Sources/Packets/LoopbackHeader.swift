import WireParsing

/// The 4-byte address family that heads BSD loopback frames: DLT_NULL (0), in the byte order
/// of the host that captured, and DLT_LOOP (108), in network byte order.
struct LoopbackHeader {
    static let length = 4

    let addressFamily: UInt32

    var payload: LinkPayload {
        switch addressFamily {
        case Self.inet: .ipv4
        case Self.inet6Linux, Self.inet6NetBSDOpenBSD, Self.inet6FreeBSD, Self.inet6Darwin: .ipv6
        default: .other(.addressFamily(addressFamily))
        }
    }

    // AF_INET is 2 everywhere; AF_INET6 differs by system, and a capture may come from any.
    static let inet: UInt32 = 2
    static let inet6Linux: UInt32 = 10
    static let inet6NetBSDOpenBSD: UInt32 = 24
    static let inet6FreeBSD: UInt32 = 28
    static let inet6Darwin: UInt32 = 30

    /// Reads a DLT_NULL header. The capturing host's byte order is unknown, but families are
    /// small numbers: a value with bits in the upper half was written by a host of the other
    /// byte order (the rule tcpdump and Wireshark apply).
    init(parsingNull cursor: inout ByteCursor) throws(DecodeError) {
        let value = try cursor.readUInt32LittleEndian("the BSD loopback address family")
        addressFamily = value & 0xFFFF_0000 != 0 ? value.byteSwapped : value
    }

    /// Reads a DLT_LOOP header.
    init(parsingLoop cursor: inout ByteCursor) throws(DecodeError) {
        addressFamily = try cursor.readUInt32BigEndian("the OpenBSD loopback address family")
    }
}
