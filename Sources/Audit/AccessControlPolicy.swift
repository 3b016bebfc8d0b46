import HAPEvents
import HTTP1
import Packets
import TLV8

/// Who may use the accessory: `unverified-request` (the accessory served a protected endpoint
/// on a connection that never ran pair-verify), `secure-access-without-session` (it served a
/// characteristic that needs a secured session without one) and `pairing-without-admin` (a
/// regular controller managed pairings).
struct AccessControlPolicy: AuditPolicy {
    /// The endpoints that need a verified, encrypted session (PROTOCOL §5.1).
    private static let protectedEndpoints: Set<HAPRequestTarget.Endpoint> = [
        .accessories, .characteristics, .pairings, .prepare, .resource,
    ]

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .httpMessage(let http):
            checkVerification(http, in: context, findings: &findings)
        case .pairingExchange(let exchange):
            checkAdminRights(exchange, packet: event.packet, in: context, findings: &findings)
        case .characteristic(let activity) where activity.servedWithoutRequiredSession:
            checkSessionRequirement(activity, packet: event.packet, findings: &findings)
        default:
            break
        }
    }

    private func checkVerification(_ http: HTTPMessageEvent, in context: AuditContext, findings: inout FindingLedger) {
        // A plaintext response on a connection that did start a session is another rule's
        // (`plaintext-after-encryption`): that connection was verified.
        guard http.direction == .accessoryToController, http.message.kind == .response, !http.encrypted,
              let request = http.request, let status = http.message.status, status.isSuccess,
              let connection = context.connections[http.connection.id], connection.session == nil,
              Self.protectedEndpoints.contains(HAPRequestTarget(request.target).endpoint)
        else { return }
        let contentType = http.message.contentType.map { ", \($0)" } ?? ""
        findings.record(.unverifiedRequest, .connection(http.connection), accessory: connection.deviceID, Evidence(
            packet: http.lastPacket, connection: http.connection,
            detail: "the plaintext request \(request.method) \(request.target) (packet #\(request.packet.number)) was "
                + "answered \(status) (body \(http.message.body.count) bytes\(contentType)) on a connection that "
                + "never completed pair-verify; HAP requires 470 Connection Authorization Required"))
    }

    private func checkSessionRequirement(_ activity: CharacteristicActivity, packet: PacketInfo?, findings: inout FindingLedger) {
        let value = activity.value.map { ", value \($0.value)" } ?? ""
        findings.record(.secureAccessWithoutSession, .connection(activity.connection), accessory: activity.deviceID, Evidence(
            packet: packet, connection: activity.connection,
            detail: "the \(activity.kind) of \(activity.evidenceSubject) was answered with success\(value) on a connection "
                + "with no secured session, though the characteristic allows it only over one; HAP requires status 5 "
                + "(Insufficient Authentication)"))
    }

    private func checkAdminRights(
        _ exchange: PairingExchangeEvent, packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        guard exchange.procedure == .pairings, exchange.succeeded, let controllerID = exchange.sessionControllerID,
              let accessory = context.accessoryKey(of: exchange.connection.id),
              let entry = context.roster(of: accessory).entry(controllerID), !entry.isAdmin
        else { return }
        let request: String
        switch exchange.pairingsRequest {
        case .addPairingM1(let add)?:
            request = "Add Pairing of \(add.identifier?.description ?? "(no identifier)")"
                + (add.permissions.map { " with permissions \($0)" } ?? "")
        case .removePairingM1(let remove)?:
            request = "Remove Pairing of \(remove.identifier?.description ?? "(no identifier)")"
        case .listPairingsM1?:
            request = "List Pairings"
        default:
            request = exchange.method.map { "\($0)" } ?? "a /pairings request"
        }
        findings.record(.pairingWithoutAdmin, .connection(exchange.connection), accessory: accessory, Evidence(
            packet: packet, connection: exchange.connection,
            detail: "\(request) was accepted (M2 without an Error item) on a session verified by \(controllerID), "
                + "a regular (non-admin) controller (\(entry.source)); HAP requires M2 Error=Authentication"))
    }
}

extension CharacteristicActivity {
    /// `1.50 (On) (request at packet #819)`: the characteristic, its name and the request's packet,
    /// as the evidence of a rule on one read or write names them.
    var evidenceSubject: String {
        let name = name.map { " (\($0))" } ?? ""
        let request = requestPacket.map { " (request at packet #\($0.number))" } ?? ""
        return "\(id)\(name)\(request)"
    }
}
