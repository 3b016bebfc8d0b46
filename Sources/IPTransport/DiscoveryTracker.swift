import DNS
import HAPCore
import HAPCrypto
import HAPEvents
import Packets

/// Follows mDNS traffic: decodes each message, keeps the last TXT record of every HAP and Matter
/// instance so changes can be reported, and remembers where each accessory listens so that TCP
/// connections can be tied to a device id. Judges each advertised setup hash against the setup ID
/// the user gave, once, where the TXT record is read.
final class DiscoveryTracker {
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
    let setupID: SetupID?
    /// The setup hash computed for each device id, so that each is hashed once.
    private var expectedSetupHashes: [String: [UInt8]] = [:]

    init(setupID: SetupID?, maximumInstances: Int) {
        self.setupID = setupID
        self.maximumInstances = max(1, maximumInstances)
    }

    static func isMDNS(_ datagram: UDPDatagram) -> Bool {
        datagram.source.port == mdnsPort || datagram.destination.port == mdnsPort
    }

    /// Decodes one mDNS datagram into events; returns what it announced and asked (nil when it
    /// does not decode), for the other transports that learn their endpoints from mDNS.
    @discardableResult
    func process(_ datagram: UDPDatagram, emit: (HAPEvent.Kind) -> Void) -> DiscoveryMessage? {
        let message: DNSMessage
        do {
            message = try DNSMessage(parsing: datagram.payload)
        } catch {
            emit(.problem(CaptureProblem(.undecodableMDNS, error.description)))
            return nil
        }
        let discovery = DiscoveryMessage(message)
        let browsing = discovery.queries.filter { Self.isInteresting($0.serviceType) }
        if !browsing.isEmpty {
            emit(.mdnsQuery(DiscoveryQueryEvent(sender: datagram.source, queries: browsing)))
        }
        for service in discovery.services where service.hap != nil || service.matter != nil {
            emit(.advertisement(record(service, from: datagram.source, isResponse: discovery.isResponse, diagnostics: discovery.diagnostics)))
        }
        return discovery
    }

    private static func isInteresting(_ type: ServiceType?) -> Bool {
        guard let type else { return false }
        return ["_hap", "_matter", "_matterc", "_matterd"].contains(type.service)
    }

    private func record(
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

        var setupHash: SetupHashCheck?
        if let hap = service.hap {
            rememberEndpoints(of: service, hap: hap, sender: sender)
            if let setupID, let deviceID = hap.deviceID, let advertised = hap.setupHash {
                setupHash = SetupHashCheck(setupID: setupID.text, deviceID: deviceID, expected: expectedSetupHash(for: deviceID, setupID), advertised: advertised)
            }
        }
        return AdvertisementEvent(
            sender: sender, service: service, isResponse: isResponse, changes: changes,
            isFirstSighting: previous == nil, setupHash: setupHash,
            messageDiagnostics: diagnostics.filter { $0.concerns(service) })
    }

    private func rememberEndpoints(of service: ServiceAdvertisement, hap: HAPServiceTXT, sender: Endpoint) {
        guard let port = service.location?.port, !service.isGoodbye else { return }
        if advertisedPorts.count < maximumInstances { advertisedPorts.insert(port) }
        guard let deviceID = hap.deviceID else { return }
        remember(Endpoint(address: sender.address, port: port), deviceID)
        for advertised in service.addresses {
            remember(Endpoint(address: IPAddress(advertised.address), port: port), deviceID)
        }
    }

    private func remember(_ endpoint: Endpoint, _ deviceID: String) {
        if deviceIDs.updateValue(deviceID, forKey: endpoint) == nil { endpointOrder.append(endpoint) }
        if endpointOrder.count > maximumInstances {
            deviceIDs.removeValue(forKey: endpointOrder.removeFirst())
            evictions += 1
        }
    }

    /// HAP: the setup hash is the first 4 bytes of SHA-512(setup ID ‖ device ID) (PROTOCOL §7).
    private func expectedSetupHash(for deviceID: String, _ setupID: SetupID) -> [UInt8] {
        if let known = expectedSetupHashes[deviceID] { return known }
        let hash = SetupHash(setupID: setupID, deviceID: deviceID).bytes
        if expectedSetupHashes.count < maximumInstances { expectedSetupHashes[deviceID] = hash }
        return hash
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

extension DiscoveryDiagnostic {
    /// Whether the diagnostic is about `service` rather than about another part of the message.
    func concerns(_ service: ServiceAdvertisement) -> Bool {
        switch kind {
        case .targetWithoutAddress(let instance, _): instance == service.name
        default: true
        }
    }
}
