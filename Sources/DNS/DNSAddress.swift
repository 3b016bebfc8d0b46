import WireParsing

/// The address in an A or AAAA record.
///
/// Stored as `Packets.IPAddress` stores it (IPv4 in host byte order, IPv6 as two halves, most
/// significant first), so the session layer converts without reshuffling bytes.
public enum DNSAddress: Hashable, Sendable, CustomStringConvertible {
    /// 192.0.2.1 is 0xC000_0201.
    case v4(UInt32)
    case v6(high: UInt64, low: UInt64)

    /// Reads the 4 bytes of A record data (RFC 1035 §3.4.1).
    public init(parsingIPv4 cursor: inout ByteCursor) throws(DecodeError) {
        self = .v4(try cursor.readUInt32BigEndian("an IPv4 address"))
    }

    /// Reads the 16 bytes of AAAA record data (RFC 3596 §2.2).
    public init(parsingIPv6 cursor: inout ByteCursor) throws(DecodeError) {
        let word0 = UInt64(try cursor.readUInt32BigEndian("an IPv6 address"))
        let word1 = UInt64(try cursor.readUInt32BigEndian("an IPv6 address"))
        let word2 = UInt64(try cursor.readUInt32BigEndian("an IPv6 address"))
        let word3 = UInt64(try cursor.readUInt32BigEndian("an IPv6 address"))
        self = .v6(high: word0 << 32 | word1, low: word2 << 32 | word3)
    }

    /// Dotted-quad IPv4, or RFC 5952 IPv6: lower-case hex, the longest run of two or more
    /// zero groups written `::`.
    public var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        case .v6(let high, let low):
            let groups = (0..<8).map { index in
                UInt16(truncatingIfNeeded: (index < 4 ? high : low) >> (UInt64(3 - index % 4) * 16))
            }
            var longestStart = -1, longestLength = 1
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else { index += 1; continue }
                let start = index
                while index < 8, groups[index] == 0 { index += 1 }
                if index - start > longestLength { longestStart = start; longestLength = index - start }
            }
            func hex(_ range: Range<Int>) -> String {
                groups[range].map { String($0, radix: 16) }.joined(separator: ":")
            }
            guard longestStart >= 0 else { return hex(0..<8) }
            return hex(0..<longestStart) + "::" + hex((longestStart + longestLength)..<8)
        }
    }
}
