import DNS
import HAPCrypto
import Packets

/// A HAP or Matter service seen in an mDNS message, with what changed since the same instance
/// was last seen.
public struct AdvertisementEvent: Sendable {
    /// Who sent the mDNS message.
    public let sender: Endpoint
    public let service: ServiceAdvertisement
    /// Whether this message was a response (announcement or answer) rather than a probe.
    public let isResponse: Bool
    /// TXT keys whose value differs from the previous advertisement of the same instance; empty
    /// the first time an instance is seen.
    public let changes: [TXTChange]
    public let isFirstSighting: Bool
    /// Whether the advertised `sh` matches the setup ID the user gave; nil when either is missing.
    public let setupHashMatches: Bool?
    /// Problems of the mDNS message that concern this service (e.g. an SRV target with no address).
    public let messageDiagnostics: [DiscoveryDiagnostic]

    public var isHAP: Bool { service.hap != nil }
    public var isMatter: Bool { service.matter != nil }
}

/// One TXT key that changed between two advertisements of the same instance.
public struct TXTChange: Sendable, Hashable {
    public let key: String
    public let old: String?
    public let new: String?

    /// `c#`, `s#` and `sf` are the keys whose changes controllers act on (HAP §7).
    public var isSignificant: Bool { ["c#", "s#", "sf"].contains(key) }
}

/// Who browsed for which service.
public struct DiscoveryQueryEvent: Sendable {
    public let sender: Endpoint
    public let queries: [ServiceQuery]
}

/// Follows mDNS traffic: decodes each message, keeps the last TXT record of every HAP and Matter
/// instance so changes can be reported, and remembers where each accessory listens so that TCP
/// connections can be tied to a device id.
struct DiscoveryTracker {
    static let mdnsPort: UInt16 = 5353

    /// How many service instances and accessory endpoints are remembered (`AnalysisLimits`).
    let maximumInstances: Int
    /// How many were forgotten to stay within it.
    private(set) var evictions = 0

    private var lastTXT: [String: [String: String]] = [:]
    private var instanceOrder: [String] = []
    /// Accessory endpoints learned from SRV and A/AAAA records: endpoint → device id.
    private(set) var deviceIDs: [Endpoint: String] = [:]
    private var endpointOrder: [Endpoint] = []
    /// Ports HAP accessories advertise, for recognising connections that start mid-stream.
    private(set) var advertisedPorts: Set<UInt16> = []
    let setupID: String?

    init(setupID: String?, maximumInstances: Int) {
        self.setupID = setupID
        self.maximumInstances = max(1, maximumInstances)
    }

    static func isMDNS(_ datagram: UDPDatagram) -> Bool {
        datagram.source.port == mdnsPort || datagram.destination.port == mdnsPort
    }

    /// Decodes one mDNS datagram into events.
    mutating func process(_ datagram: UDPDatagram, emit: (HAPEvent.Kind) -> Void) {
        let message: DNSMessage
        do {
            message = try DNSMessage(parsing: datagram.payload)
        } catch {
            emit(.problem(CaptureProblem(.undecodableMDNS, error.description)))
            return
        }
        let discovery = DiscoveryMessage(message)
        let browsing = discovery.queries.filter { Self.isInteresting($0.serviceType) }
        if !browsing.isEmpty {
            emit(.mdnsQuery(DiscoveryQueryEvent(sender: datagram.source, queries: browsing)))
        }
        for service in discovery.services where service.hap != nil || service.matter != nil {
            emit(.advertisement(record(service, from: datagram.source, isResponse: discovery.isResponse, diagnostics: discovery.diagnostics)))
        }
    }

    private static func isInteresting(_ type: ServiceType?) -> Bool {
        guard let type else { return false }
        return ["_hap", "_matter", "_matterc", "_matterd"].contains(type.service)
    }

    private mutating func record(
        _ service: ServiceAdvertisement, from sender: Endpoint, isResponse: Bool, diagnostics: [DiscoveryDiagnostic]
    ) -> AdvertisementEvent {
        let key = service.name.escapedText.lowercased()
        let txt = Self.pairs(service.txt)
        let previous = lastTXT[key]
        var changes: [TXTChange] = []
        if let previous, let txt {
            for name in Set(previous.keys).union(txt.keys).sorted() where previous[name] != txt[name] {
                changes.append(TXTChange(key: name, old: previous[name], new: txt[name]))
            }
        }
        if let txt, !service.isGoodbye {
            if lastTXT.updateValue(txt, forKey: key) == nil { instanceOrder.append(key) }
            if instanceOrder.count > maximumInstances {
                lastTXT.removeValue(forKey: instanceOrder.removeFirst())
                evictions += 1
            }
        }

        var setupHashMatches: Bool?
        if let hap = service.hap {
            rememberEndpoints(of: service, hap: hap, sender: sender)
            if let setupID, let deviceID = hap.deviceID, let advertised = hap.setupHash {
                setupHashMatches = (try? SetupHash(setupID: setupID, deviceID: deviceID))?.bytes == advertised
            }
        }
        return AdvertisementEvent(
            sender: sender, service: service, isResponse: isResponse, changes: changes,
            isFirstSighting: previous == nil, setupHashMatches: setupHashMatches,
            messageDiagnostics: diagnostics.filter { $0.concerns(service) })
    }

    private mutating func rememberEndpoints(of service: ServiceAdvertisement, hap: HAPServiceTXT, sender: Endpoint) {
        guard let port = service.location?.port, !service.isGoodbye else { return }
        if advertisedPorts.count < maximumInstances { advertisedPorts.insert(port) }
        guard let deviceID = hap.deviceID else { return }
        remember(Endpoint(address: sender.address, port: port), deviceID)
        for advertised in service.addresses {
            remember(Endpoint(address: IPAddress(advertised.address), port: port), deviceID)
        }
    }

    private mutating func remember(_ endpoint: Endpoint, _ deviceID: String) {
        if deviceIDs.updateValue(deviceID, forKey: endpoint) == nil { endpointOrder.append(endpoint) }
        if endpointOrder.count > maximumInstances {
            deviceIDs.removeValue(forKey: endpointOrder.removeFirst())
            evictions += 1
        }
    }

    private static func pairs(_ txt: ServiceTXT?) -> [String: String]? {
        guard let txt else { return nil }
        var pairs: [String: String] = [:]
        for entry in txt.entries where pairs[entry.key.lowercased()] == nil {
            pairs[entry.key.lowercased()] = entry.valueText ?? ""
        }
        return pairs
    }
}

extension IPAddress {
    init(_ address: DNSAddress) {
        switch address {
        case .v4(let value): self = .v4(value)
        case .v6(let high, let low): self = .v6(high: high, low: low)
        }
    }
}

extension DiscoveryDiagnostic {
    /// Whether the diagnostic is about `service` rather than about another part of the message.
    func concerns(_ service: ServiceAdvertisement) -> Bool {
        switch kind {
        case .targetWithoutAddress(let instance, _): instance == service.name
        default: true
        }
    }
}
