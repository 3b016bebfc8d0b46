/// A question in an mDNS query: who browses for what, or resolves which instance or host.
public struct ServiceQuery: Sendable, Hashable {
    public var name: DNSName
    public var type: DNSRecordType
    /// The "QU" bit: a unicast reply is asked for (RFC 6762 §5.4).
    public var prefersUnicastResponse: Bool
    /// The name read as a service type when the query browses one: `_hap._tcp.local` or a
    /// `_sub` subtype. The enumeration name of RFC 6763 §9 is not a service type.
    public var serviceType: ServiceType?
    /// The name read as a service instance when the query resolves one (SRV, TXT, ANY).
    public var instance: ServiceInstanceName?
    /// Offset of the question.
    public var offset: Int

    public init(
        name: DNSName, type: DNSRecordType, prefersUnicastResponse: Bool, serviceType: ServiceType?,
        instance: ServiceInstanceName?, offset: Int
    ) {
        self.name = name
        self.type = type
        self.prefersUnicastResponse = prefersUnicastResponse
        self.serviceType = serviceType
        self.instance = instance
        self.offset = offset
    }

    public init(_ question: DNSQuestion) {
        self.init(
            name: question.name, type: question.type, prefersUnicastResponse: question.prefersUnicastResponse,
            serviceType: ServiceType(question.name), instance: ServiceInstanceName(question.name),
            offset: question.offset)
    }
}
