/// A DNS-SD service instance name, `<Instance>.<Service>.<Domain>` (RFC 6763 §4.1): the
/// owner of an instance's SRV and TXT records and the target of the service type's PTR.
public struct ServiceInstanceName: Sendable, Hashable, CustomStringConvertible {
    /// The instance label as sent: user-chosen UTF-8 that may hold spaces and dots
    /// (RFC 6763 §4.1.1). For a HAP accessory it is the accessory's name.
    public var instance: [UInt8]
    /// The service type; never a subtype, since subtypes only name browse queries.
    public var type: ServiceType

    public init(instance: [UInt8], type: ServiceType) {
        self.instance = instance
        self.type = type
    }

    /// Recognises `<Instance>._service._tcp|_udp.<domain>`; nil for any other name.
    public init?(_ name: DNSName) {
        var labels = name.labels.makeIterator()
        guard let instance = labels.next(), let serviceLabel = labels.next(), let transportLabel = labels.next(),
              let service = ServiceType.serviceLabel(serviceLabel), let transport = ServiceType.transport(transportLabel)
        else { return nil }
        self.init(
            instance: Array(instance),
            type: ServiceType(service: service, transport: transport, domain: name.droppingFirstLabels(3)))
    }

    /// The instance label for users, as in `DNSName.displayText`: `Living Room Lamp`.
    public var instanceText: String { DNSName.displayText(ofLabel: instance) }

    /// The whole name in master-file form, `Living\032Room\032Lamp._hap._tcp.local.`.
    public var description: String { DNSName.escapedText(ofLabel: instance) + "." + type.description }
}
