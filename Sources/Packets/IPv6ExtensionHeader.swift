import WireParsing

/// One IPv6 extension header that is skipped by its length: hop-by-hop options, routing,
/// destination options, mobility, HIP, Shim6 (RFC 8200 §4; RFC 7045 lists them) and the
/// authentication header (RFC 4302 §2).
struct IPv6ExtensionHeader {
    let nextHeader: IPProtocol
    /// The whole header in bytes.
    let length: Int

    /// Whether `kind` is an extension header this type reads.
    static func isSkippable(_ kind: IPProtocol) -> Bool {
        switch kind {
        case .hopByHopOptions, .ipv6Routing, .destinationOptions, .mobility, .hostIdentity, .shim6,
             .authenticationHeader:
            true
        default:
            false
        }
    }

    /// Reads the header of type `kind` and leaves the cursor after it. `payloadRemaining` is
    /// what the IPv6 payload length leaves from the header's first byte on: a header longer
    /// than that is malformed, while one that fits but was not captured whole is truncated.
    init(parsing cursor: inout ByteCursor, kind: IPProtocol, payloadRemaining: Int) throws(DecodeError) {
        let start = cursor.position
        guard payloadRemaining >= 8 else {
            throw cursor.malformed("an IPv6 \(kind) header of at least 8 bytes within the \(payloadRemaining) bytes the payload length leaves")
        }
        let fields = try cursor.read(count: 2, "the next header and length of an IPv6 \(kind) header")
        nextHeader = IPProtocol(rawValue: fields.bigEndian(at: 0))
        let lengthField = Int(fields.bigEndian(UInt8.self, at: 1))
        // RFC 4302 §2.2: AH counts 4-byte words minus 2; RFC 8200 §4: the others count
        // 8-byte units beyond the first.
        length = kind == .authenticationHeader ? (lengthField + 2) * 4 : (lengthField + 1) * 8
        guard length <= payloadRemaining else {
            throw cursor.malformed(
                "an IPv6 \(kind) header within the \(payloadRemaining) bytes the payload length leaves, found \(length) bytes",
                at: start + 1)
        }
        try cursor.skip(count: length - 2, "the \(length)-byte IPv6 \(kind) header")
    }
}
