/// A resource record CLASS or question QCLASS (RFC 1035 §3.2.4), without the top bit that
/// mDNS repurposes (RFC 6762 §18.12, §18.13).
public struct DNSClass: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let internet = DNSClass(1)
    public static let chaos = DNSClass(3)
    public static let hesiod = DNSClass(4)
    /// QCLASS `*` (RFC 1035 §3.2.5).
    public static let any = DNSClass(255)

    /// `IN`, `CH`, `HS`, `ANY`, or `CLASS<n>` (RFC 3597 §5).
    public var description: String {
        switch rawValue {
        case 1: "IN"
        case 3: "CH"
        case 4: "HS"
        case 255: "ANY"
        default: "CLASS\(rawValue)"
        }
    }
}
