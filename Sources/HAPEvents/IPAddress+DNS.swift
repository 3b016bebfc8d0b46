import DNS
import Packets

extension IPAddress {
    /// An address an mDNS A or AAAA record gave.
    public init(_ address: DNSAddress) {
        switch address {
        case .v4(let value): self = .v4(value)
        case .v6(let high, let low): self = .v6(high: high, low: low)
        }
    }
}
