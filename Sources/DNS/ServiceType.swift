/// A DNS-SD service type: `_hap._tcp.local`, or with a subtype
/// `_L840._sub._matterc._udp.local` (RFC 6763 §4.1.2, §7, §7.1).
public struct ServiceType: Sendable, Hashable, CustomStringConvertible {
    /// The transport label: `_tcp` for services over TCP, `_udp` for everything else
    /// (RFC 6763 §7).
    public enum Transport: String, Sendable, Hashable {
        case tcp = "_tcp"
        case udp = "_udp"
    }

    /// The subtype label as sent, without `._sub`, when the name browses a subtype
    /// (RFC 6763 §7.1). Subtypes may be any bytes, not only `_`-prefixed ASCII.
    public var subtype: [UInt8]?
    /// The service label with its underscore, lower-cased: `_hap`, `_matterc`.
    public var service: String
    public var transport: Transport
    /// Where the service is offered: `local.` for mDNS.
    public var domain: DNSName

    public init(subtype: [UInt8]? = nil, service: String, transport: Transport, domain: DNSName) {
        self.subtype = subtype
        self.service = service
        self.transport = transport
        self.domain = domain
    }

    /// Recognises `_service._proto.domain` and `subtype._sub._service._proto.domain`;
    /// nil for any other name.
    public init?(_ name: DNSName) {
        var labels = name.labels.makeIterator()
        guard let first = labels.next(), let second = labels.next() else { return nil }
        if let transport = Self.transport(second), let service = Self.serviceLabel(first) {
            self.init(service: service, transport: transport, domain: name.droppingFirstLabels(2))
            return
        }
        guard Self.isSubtypeMarker(second), let serviceLabel = labels.next(), let transportLabel = labels.next(),
              let service = Self.serviceLabel(serviceLabel), let transport = Self.transport(transportLabel)
        else { return nil }
        self.init(subtype: Array(first), service: service, transport: transport, domain: name.droppingFirstLabels(4))
    }

    /// `_hap._tcp`: the service and transport, without subtype or domain.
    public var serviceAndTransport: String { "\(service).\(transport.rawValue)" }

    /// The subtype as text, as in `DNSName.displayText`.
    public var subtypeText: String? { subtype.map { DNSName.displayText(ofLabel: $0) } }

    /// The same type without its subtype.
    public var withoutSubtype: ServiceType {
        ServiceType(service: service, transport: transport, domain: domain)
    }

    /// `_L840._sub._matterc._udp.local.` in master-file form.
    public var description: String {
        let prefix = subtype.map { DNSName.escapedText(ofLabel: $0) + "._sub." } ?? ""
        return prefix + serviceAndTransport + (domain.isRoot ? "." : "." + domain.escapedText)
    }

    /// Whether `name` is `_services._dns-sd._udp.<domain>`, the name that lists the service
    /// types offered in a domain (RFC 6763 §9).
    public static func isServiceTypeEnumeration(_ name: DNSName) -> Bool {
        var labels = name.labels.makeIterator()
        guard let first = labels.next(), let second = labels.next(), let third = labels.next() else { return false }
        return equalsIgnoringCase(first, "_services") && equalsIgnoringCase(second, "_dns-sd")
            && transport(third) == .udp
    }

    static func transport(_ label: ArraySlice<UInt8>) -> Transport? {
        if equalsIgnoringCase(label, "_tcp") { return .tcp }
        if equalsIgnoringCase(label, "_udp") { return .udp }
        return nil
    }

    private static func isSubtypeMarker(_ label: ArraySlice<UInt8>) -> Bool {
        equalsIgnoringCase(label, "_sub")
    }

    /// An underscore and 1–15 letters, digits or hyphens (RFC 6763 §7, RFC 6335 §5.1).
    static func serviceLabel(_ label: ArraySlice<UInt8>) -> String? {
        guard (2...16).contains(label.count), label.first == UInt8(ascii: "_"),
              label.dropFirst().allSatisfy({ isServiceNameCharacter($0) })
        else { return nil }
        return String(decoding: label.map(DNSName.foldedCase), as: UTF8.self)
    }

    private static func isServiceNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
        default: false
        }
    }

    static func equalsIgnoringCase(_ label: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        guard label.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(label, expected).allSatisfy { DNSName.foldedCase($0) == DNSName.foldedCase($1) }
        }
    }
}
