/// One mDNS message read for service discovery: the advertisements it carries, the queries
/// it asks, and the PTR records either way.
///
/// In a response every record counts, whichever section holds it (responders put the SRV,
/// TXT and address records of a PTR answer in the additional section, RFC 6763 §12). In a
/// query the answer section lists known answers (RFC 6762 §7.1); they are reported as such,
/// not as advertisements.
public struct DiscoveryMessage: Sendable, Hashable {
    /// QR: a response (advertisements) rather than a query.
    public var isResponse: Bool
    /// The questions: browsing a service type, resolving an instance or a host.
    public var queries: [ServiceQuery]
    /// A query's known answers: PTR records the querier already holds.
    public var knownAnswers: [ServicePointer]
    /// A response's PTR records, in message order.
    public var pointers: [ServicePointer]
    /// A response's service instances, in the order their first record appears.
    public var services: [ServiceAdvertisement]
    public var diagnostics: [DiscoveryDiagnostic]

    public init(_ message: DNSMessage) {
        isResponse = message.header.isResponse
        queries = message.questions.map(ServiceQuery.init)
        diagnostics = []
        // The flags word follows the two-byte ID.
        let flagsOffset = message.offset + 2
        if message.header.opcode != .query {
            diagnostics.append(DiscoveryDiagnostic(offset: flagsOffset, kind: .nonzeroOpcode(message.header.opcode)))
        }
        if message.header.responseCode != .noError {
            diagnostics.append(DiscoveryDiagnostic(offset: flagsOffset, kind: .nonzeroResponseCode(message.header.responseCode)))
        }
        guard isResponse else {
            knownAnswers = message.answers.compactMap(ServicePointer.init)
            pointers = []
            services = []
            return
        }
        knownAnswers = []
        pointers = []
        services = []

        var addressesByHost: [DNSName: [AdvertisedAddress]] = [:]
        var serviceIndex: [DNSName: Int] = [:]
        var locationOffsets: [Int: Int] = [:]
        /// The index of the service named `name`, added on first sight; nil when the name is
        /// not a DNS-SD instance name.
        func service(named name: DNSName, offset: Int) -> Int? {
            if let index = serviceIndex[name] { return index }
            guard let instance = ServiceInstanceName(name) else { return nil }
            services.append(ServiceAdvertisement(name: name, instance: instance, offset: offset))
            serviceIndex[name] = services.count - 1
            return services.count - 1
        }

        for record in [message.answers, message.authorities, message.additionals].joined() {
            switch record.data {
            case .address(let address):
                addressesByHost[record.name, default: []].append(
                    AdvertisedAddress(address: address, ttl: record.ttl, cacheFlush: record.cacheFlush, offset: record.offset))
            case .pointer:
                guard let pointer = ServicePointer(record) else { continue }
                pointers.append(pointer)
                guard !pointer.isServiceTypeEnumeration, let index = service(named: pointer.target, offset: record.offset)
                else { continue }
                services[index].pointers.append(pointer)
            case .serviceLocation(let location):
                guard let index = service(named: record.name, offset: record.offset) else { continue }
                if services[index].location == nil {
                    services[index].location = location
                    services[index].locationTTL = record.ttl
                    locationOffsets[index] = record.offset
                }
            case .text(let strings):
                guard let index = service(named: record.name, offset: record.offset) else { continue }
                if services[index].txt == nil {
                    services[index].txt = ServiceTXT(strings, dataOffset: record.dataOffset)
                    services[index].txtTTL = record.ttl
                }
            default:
                continue
            }
        }

        for index in services.indices {
            let type = services[index].serviceType
            if let location = services[index].location {
                services[index].addresses = addressesByHost[location.target] ?? []
                if services[index].addresses.isEmpty, services[index].locationTTL != 0 {
                    diagnostics.append(DiscoveryDiagnostic(
                        offset: locationOffsets[index] ?? services[index].offset,
                        kind: .targetWithoutAddress(instance: services[index].name, target: location.target)))
                }
            }
            if type.service == "_hap", let txt = services[index].txt {
                services[index].hap = HAPServiceTXT(txt, transport: type.transport)
            }
            if let role = MatterServiceRole(type) {
                services[index].matter = MatterAdvertisement(
                    instance: services[index].instance, role: role, nameOffset: services[index].offset,
                    pointers: services[index].pointers, txt: services[index].txt)
            }
        }
    }
}
