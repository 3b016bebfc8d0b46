/// An IP protocol number: the IPv4 Protocol field and the IPv6 Next Header field
/// (IANA "Assigned Internet Protocol Numbers").
public struct IPProtocol: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let hopByHopOptions = IPProtocol(rawValue: 0)
    public static let icmp = IPProtocol(rawValue: 1)
    public static let igmp = IPProtocol(rawValue: 2)
    public static let tcp = IPProtocol(rawValue: 6)
    public static let udp = IPProtocol(rawValue: 17)
    public static let ipv6Routing = IPProtocol(rawValue: 43)
    public static let ipv6Fragment = IPProtocol(rawValue: 44)
    public static let encapsulatingSecurityPayload = IPProtocol(rawValue: 50)
    public static let authenticationHeader = IPProtocol(rawValue: 51)
    public static let icmpv6 = IPProtocol(rawValue: 58)
    public static let noNextHeader = IPProtocol(rawValue: 59)
    public static let destinationOptions = IPProtocol(rawValue: 60)
    public static let mobility = IPProtocol(rawValue: 135)
    public static let hostIdentity = IPProtocol(rawValue: 139)
    public static let shim6 = IPProtocol(rawValue: 140)

    public var description: String {
        switch self {
        case .hopByHopOptions: "hop-by-hop options"
        case .icmp: "ICMP"
        case .igmp: "IGMP"
        case .tcp: "TCP"
        case .udp: "UDP"
        case .ipv6Routing: "IPv6 routing"
        case .ipv6Fragment: "IPv6 fragment"
        case .encapsulatingSecurityPayload: "ESP"
        case .authenticationHeader: "AH"
        case .icmpv6: "ICMPv6"
        case .noNextHeader: "no next header"
        case .destinationOptions: "destination options"
        case .mobility: "mobility"
        case .hostIdentity: "HIP"
        case .shim6: "Shim6"
        default: "IP protocol \(rawValue)"
        }
    }
}
