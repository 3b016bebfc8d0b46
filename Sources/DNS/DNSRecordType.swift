/// A resource record TYPE or question QTYPE (RFC 1035 §3.2.2, IANA "Resource Record (RR) TYPEs").
public struct DNSRecordType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let a = DNSRecordType(1)
    public static let ns = DNSRecordType(2)
    public static let cname = DNSRecordType(5)
    public static let soa = DNSRecordType(6)
    public static let ptr = DNSRecordType(12)
    public static let hinfo = DNSRecordType(13)
    public static let mx = DNSRecordType(15)
    public static let txt = DNSRecordType(16)
    public static let aaaa = DNSRecordType(28)
    public static let srv = DNSRecordType(33)
    public static let opt = DNSRecordType(41)
    public static let nsec = DNSRecordType(47)
    /// QTYPE `*`: every record of the name. mDNS probes ask for it (RFC 6762 §8.1).
    public static let any = DNSRecordType(255)

    private static let mnemonics: [UInt16: String] = [
        1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 13: "HINFO", 15: "MX", 16: "TXT",
        28: "AAAA", 33: "SRV", 41: "OPT", 46: "RRSIG", 47: "NSEC", 48: "DNSKEY", 64: "SVCB",
        65: "HTTPS", 255: "ANY",
    ]

    /// The mnemonic, or `TYPE<n>` for types without one (RFC 3597 §5).
    public var description: String {
        Self.mnemonics[rawValue] ?? "TYPE\(rawValue)"
    }

    public static func < (lhs: DNSRecordType, rhs: DNSRecordType) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
