import CoAP
import DNS
import HAPCore
import HAPEvents
import Packets

/// HAP over Thread: CoAP over UDP between a controller and an accessory, as a Thread border
/// router forwards it to the LAN (docs/coap.md).
///
/// The pipeline hands it the UDP datagrams that are not HAP over IP's, and lets it see the mDNS
/// ones: an accessory endpoint is one that `_hap._udp` advertises (with its device id), one the
/// key log's `SESSION_ENDPOINTS` names, or, failing both, UDP port 5683 (RFC 7252 §6.1, the CoAP
/// default port, which Nanoleaf Essentials use: nanoleaf-ltpdu README.rst). Each controller
/// endpoint talking to an accessory endpoint is one connection (`CoAPSession`), numbered by the
/// run's one connection counter (`AnalysisContext.nextConnectionID`).
package final class CoAPTransport {
    /// RFC 7252 §6.1.
    static let defaultPort: UInt16 = 5683

    private let context: AnalysisContext
    private let keyLogAccessories: Set<Endpoint>
    /// Accessory endpoints `_hap._udp` advertised, with the device id of the advertisement.
    private var advertised: [Endpoint: String] = [:]
    private var advertisedOrder: [Endpoint] = []
    private var sessions: [SessionKey: CoAPSession] = [:]
    /// The sum of the sessions' `heldByteCount`, kept within `coap.held-bytes`.
    private var heldBytes = 0

    private struct SessionKey: Hashable {
        let controller: Endpoint
        let accessory: Endpoint
    }

    package init(context: AnalysisContext) {
        self.context = context
        keyLogAccessories = context.keyLogSessions.accessoryEndpoints
    }

    /// Learns the accessory endpoints of `_hap._udp` from an mDNS datagram's discovery, decoded
    /// once by HAP over IP (which reports it, and the datagrams that do not decode).
    package func observeDiscovery(_ discovery: DiscoveryMessage, sender: Endpoint) {
        for service in discovery.services {
            guard service.serviceType.service == "_hap", service.serviceType.transport == .udp, !service.isGoodbye,
                  let port = service.location?.port, let deviceID = service.hap?.deviceID else { continue }
            remember(Endpoint(address: sender.address, port: port), deviceID)
            for address in service.addresses { remember(Endpoint(address: IPAddress(address.address), port: port), deviceID) }
        }
    }

    private func remember(_ endpoint: Endpoint, _ deviceID: String) {
        if advertised.updateValue(deviceID, forKey: endpoint) == nil { advertisedOrder.append(endpoint) }
        if advertisedOrder.count > context.limits.maximumMDNSInstances {
            advertised[advertisedOrder.removeFirst()] = nil
            context.limitReached(.mdnsInstances, "more mDNS service instances than the mdns.instances limit: the oldest are forgotten", nil)
        }
    }

    private func isAccessory(_ endpoint: Endpoint) -> Bool {
        advertised[endpoint] != nil || keyLogAccessories.contains(endpoint)
    }

    /// Takes the datagram if it is HAP over CoAP's; returns whether it did.
    package func process(_ datagram: UDPDatagram, packet: PacketInfo) -> Bool {
        let direction: HAPDirection
        if isAccessory(datagram.destination) {
            direction = .controllerToAccessory
        } else if isAccessory(datagram.source) {
            direction = .accessoryToController
        } else if datagram.destination.port == Self.defaultPort || datagram.source.port == Self.defaultPort {
            // On the port alone, only what starts as a CoAP version 1 header (RFC 7252 §3) is taken.
            guard let first = datagram.payload.first, first >> 6 == CoAPMessage.version else { return false }
            direction = datagram.destination.port == Self.defaultPort ? .controllerToAccessory : .accessoryToController
        } else {
            return false
        }
        let (controller, accessory) = direction == .controllerToAccessory
            ? (datagram.source, datagram.destination) : (datagram.destination, datagram.source)
        let session = session(SessionKey(controller: controller, accessory: accessory), packet: packet)
        guard datagram.missingPayloadCount == 0 else {
            context.emit(.problem(CaptureProblem(
                .undecodableCoAP, "\(session.info): packet \(packet.number): the capture holds \(datagram.payload.count) of the datagram's bytes (\(datagram.missingPayloadCount) cut off); not decoded",
                connection: session.info, direction: direction)), packet)
            return true
        }
        let before = session.heldByteCount
        session.process(Array(datagram.payload), direction, packet: packet)
        heldBytes += session.heldByteCount - before
        if heldBytes > context.limits.maximumCoAPHeldBytes {
            // The session that grew gives back its block-wise bodies, the one part that grows by
            // the datagram; what is left of each session is bounded by count.
            let grown = session.heldByteCount
            session.dropBlockwiseBodies(packet)
            heldBytes -= grown - session.heldByteCount
            context.limitReached(.coapHeldBytes, "HAP over CoAP held more bytes than the coap.held-bytes limit: block-wise bodies were dropped", packet)
        }
        return true
    }

    private func session(_ key: SessionKey, packet: PacketInfo) -> CoAPSession {
        if let session = sessions[key] { return session }
        if sessions.count >= context.limits.maximumCoAPSessions,
           let oldest = sessions.min(by: { $0.value.lastPacket.number < $1.value.lastPacket.number }) {
            sessions[oldest.key] = nil
            heldBytes -= oldest.value.heldByteCount
            context.limitReached(.coapSessions, "more CoAP controller endpoints than the coap.sessions limit: the longest silent is closed", packet)
            oldest.value.close(.evicted, at: packet)
        }
        let info = ConnectionInfo(
            id: context.nextConnectionID(), transport: .coap, controller: .ip(key.controller), accessory: .ip(key.accessory))
        let deviceID = advertised[key.accessory]
        let recognition: ConnectionOpenedEvent.Recognition = advertised[key.accessory] != nil ? .advertisedEndpoint
            : keyLogAccessories.contains(key.accessory) ? .knownEndpoint : .hapRequest
        context.emit(.connectionOpened(ConnectionOpenedEvent(connection: info, deviceID: deviceID, handshakeSeen: false, recognisedBy: recognition)), packet)
        let session = CoAPSession(info: info, deviceID: deviceID, packet: packet, context: context)
        sessions[key] = session
        return session
    }

    /// Closes every connection: the capture ended.
    package func finish() {
        for session in sessions.values.sorted(by: { $0.info.id < $1.info.id }) {
            session.close(.captureEnded, at: nil)
        }
        sessions.removeAll()
        heldBytes = 0
    }
}
