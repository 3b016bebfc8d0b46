/// A PTR record read as DNS-SD: a service type (or subtype) pointing to one instance
/// (RFC 6763 §4.1, §7.1), or the service-type enumeration name pointing to a service type
/// (RFC 6763 §9).
public struct ServicePointer: Sendable, Hashable {
    /// The owner: `_hap._tcp.local`, `_L3840._sub._matterc._udp.local`.
    public var owner: DNSName
    /// The owner read as a service type, with its subtype; nil when it is not one.
    public var serviceType: ServiceType?
    /// The instance pointed to (for the enumeration name, a service type).
    public var target: DNSName
    public var ttl: UInt32
    /// Offset of the PTR record.
    public var offset: Int

    public init(owner: DNSName, serviceType: ServiceType?, target: DNSName, ttl: UInt32, offset: Int) {
        self.owner = owner
        self.serviceType = serviceType
        self.target = target
        self.ttl = ttl
        self.offset = offset
    }

    /// A PTR record as a service pointer; nil for other records.
    public init?(_ record: DNSResourceRecord) {
        guard case .pointer(let target) = record.data else { return nil }
        self.init(
            owner: record.name, serviceType: ServiceType(record.name), target: target, ttl: record.ttl,
            offset: record.offset)
    }

    /// TTL zero: the instance is withdrawn (RFC 6762 §10.1).
    public var isGoodbye: Bool { ttl == 0 }

    /// The owner is `_services._dns-sd._udp.<domain>` (RFC 6763 §9).
    public var isServiceTypeEnumeration: Bool { ServiceType.isServiceTypeEnumeration(owner) }
}
