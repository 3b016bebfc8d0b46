import HAPEvents
import HAPJSON
import Packets

/// The encrypted session and the HTTP exchanges on it: `nonce-skip`, `nonce-reuse`,
/// `frame-auth-failure`, `oversize-frame`, `plaintext-after-encryption`, `counter-drift`,
/// `retransmission-differs`, `unsolicited-event`, `response-without-request`,
/// `transaction-id-mismatch` and `broadcast-key-expired`.
///
/// The last two judge by what the capture shows the controller sent; bytes the capture lost, or
/// a direction hapscope could not decrypt, hide requests and subscriptions, so such suspects are
/// kept until the connection closes and dropped if the controller's direction was not seen whole.
struct SessionPolicy: AuditPolicy {
    private let maximumSuspects: Int
    private var connections: [Int: ConnectionState] = [:]

    init(maximumSuspectsPerConnection: Int) {
        maximumSuspects = maximumSuspectsPerConnection
    }

    private struct ConnectionState {
        /// Characteristics this connection ever subscribed to, counted from the accessory's answer
        /// to the `PUT` that subscribed them. An EVENT after unsubscribing is not unsolicited: the
        /// analysis reports it (`NotificationProblem.afterUnsubscribe`, `event-after-unsubscribe`).
        var subscriptions: Set<CharacteristicID> = []
        /// Whether every byte the controller sent could be read: false once a direction key was
        /// missing or a frame of the controller failed.
        var controllerDirectionReadable = true
        var requestCount = 0
        /// Judged when the connection closes.
        var suspects: [Suspect] = []
    }

    private struct Suspect {
        let rule: AuditRule
        let evidence: Evidence
        /// Shown by the accessory's own words (its database says the characteristic has no `ev`),
        /// so no lost request can explain it.
        let standsAlone: Bool
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .connectionOpened(let opened):
            // Without the handshake, requests and subscriptions made before the capture are unknown.
            connections[opened.connection.id] = ConnectionState(controllerDirectionReadable: opened.handshakeSeen)
        case .sessionStarted(let started):
            if !started.decryptable.contains(.controllerToAccessory) {
                connections[started.connection.id]?.controllerDirectionReadable = false
            }
        case .sessionProblem(let problem):
            sessionProblem(problem, packet: event.packet, in: context, findings: &findings)
        case .httpMessage(let http):
            httpMessage(http, in: context)
        case .bleAdvertisement(let advertisement):
            broadcastKeyLifetime(advertisement, packet: event.packet, findings: &findings)
        case .characteristic(let activity):
            characteristic(activity, packet: event.packet, in: context)
        case .connectionClosed(let summary):
            connectionClosed(summary, in: context, findings: &findings)
        case .inputEnded:
            // Connections still open at the end are judged on what was seen of them.
            for (id, state) in connections.sorted(by: { $0.key < $1.key }) {
                judgeSuspects(state, controllerDirectionWhole: state.controllerDirectionReadable, findings: &findings)
                connections.removeValue(forKey: id)
            }
        default:
            break
        }
    }

    // MARK: Frames

    private mutating func sessionProblem(
        _ problem: SessionProblemEvent, packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        if problem.direction == .controllerToAccessory {
            connections[problem.connection.id]?.controllerDirectionReadable = false
        }
        let rule: AuditRule
        var severity: Severity?
        var counter = problem.frameCounter.map { ", frame counter \($0)" } ?? ""
        switch problem.kind {
        case .counterSkipped, .counterReused:
            if let drift = problem.counterDrift {
                // A transport whose receiver searches for the counter (HAP over CoAP).
                rule = .counterDrift
                severity = drift.receiverRecovers == false ? .medium : nil
                counter = ", counter \(drift.opened) where \(drift.expected) was due, "
                    + (drift.receiverRecovers.map { $0 ? "within the receiver's recovery search" : "beyond the receiver's recovery search" }
                        ?? "the receiver's recovery search unknown")
            } else {
                rule = problem.kind == .counterSkipped ? .nonceSkip : .nonceReuse
            }
        case .authenticationFailed: rule = .frameAuthFailure
        case .oversizeFrame: rule = .oversizeFrame
        case .plaintextAfterEncryption: rule = .plaintextAfterEncryption
        case .transactionMismatch: rule = .transactionIDMismatch
        case .retransmissionDiffers: rule = .retransmissionDiffers
        // A key that fits no frame, lost bytes and an unreadable length field are limits of the
        // capture or the key log, not evidence against a peer.
        case .keyDoesNotFit, .gap, .frameBoundaryLost: return
        }
        // A frame fault is its sender's.
        findings.record(rule, .connection(problem.connection), severity: severity, party: problem.direction.sender,
                        accessory: context.connections[problem.connection.id]?.deviceID,
                        Evidence(packet: packet, connection: problem.connection,
                                 detail: "\(problem.direction)\(counter): \(problem.message)"))
    }

    /// The transport judged an opened HAP-BLE encrypted notification's key past its lifetime.
    private func broadcastKeyLifetime(_ advertisement: BLEAdvertisementEvent, packet: PacketInfo?, findings: inout FindingLedger) {
        guard let lifetime = advertisement.broadcastKeyLifetime, let generation = lifetime.generation,
              case .judged(let increments, let expiration, true) = lifetime.verdict,
              case .opened(let deviceID, let gsn, let iid, _)? = advertisement.broadcast else { return }
        let stated = generation.statedIn.map { " (stated in packet #\($0.number))" } ?? ""
        findings.record(.broadcastKeyExpired, .connection(generation.connection), accessory: deviceID, Evidence(
            packet: packet, connection: generation.connection,
            detail: "the encrypted notification from \(advertisement.advertiser) (IID \(iid)) opened under the broadcast key "
                + "generated on connection \(generation.connection.id) at packet #\(generation.packet.number), with GSN \(gsn): "
                + "\(increments) increments after GSN \(generation.globalStateNumber.map(String.init) ?? "?")\(stated), past the key's "
                + "expiration GSN \(expiration)"))
    }

    // MARK: Messages

    private mutating func httpMessage(_ http: HTTPMessageEvent, in context: AuditContext) {
        guard connections[http.connection.id] != nil else { return }
        switch (http.direction, http.message.kind) {
        case (.controllerToAccessory, .request):
            connections[http.connection.id]?.requestCount += 1
        case (.accessoryToController, .response) where http.request == nil:
            let requests = connections[http.connection.id]?.requestCount ?? 0
            let statusLine = http.message.statusLine.map { "HTTP/\($0.version) \($0.status)" } ?? "response"
            suspect(on: http.connection.id, Suspect(
                rule: .responseWithoutRequest,
                evidence: Evidence(
                    packet: http.lastPacket, connection: http.connection,
                    detail: "the response \(statusLine) (\(http.message.body.count)-byte body, "
                        + "\(http.encrypted ? "encrypted" : "plaintext")) arrived with no request outstanding; the connection's "
                        + "\(requests) request(s) had all been answered"),
                standsAlone: false))
        default:
            break
        }
    }

    private mutating func characteristic(_ activity: CharacteristicActivity, packet: PacketInfo?, in context: AuditContext) {
        let id = activity.connection.id
        guard connections[id] != nil else { return }
        switch activity.kind {
        case .subscribe where activity.status == nil:
            connections[id]?.subscriptions.insert(activity.id)
        case .event:
            let characteristic = context.accessoryKey(of: id).flatMap { context.database(of: $0)?.characteristic(activity.id) }
            let permissions = characteristic?.metadata.permissions
            let lacksEvents = permissions.map { !$0.contains(.events) } ?? false
            let subscribed = connections[id]?.subscriptions.contains(activity.id) ?? false
            guard lacksEvents || !subscribed else { return }
            var reasons: [String] = []
            if !subscribed { reasons.append("this connection was not subscribed to it") }
            if lacksEvents, let permissions { reasons.append("its perms [\(permissions)] lack ev, so it cannot be subscribed to") }
            let name = activity.name.map { " (\($0))" } ?? ""
            let value = activity.value.map { ", value \($0.value)" } ?? ""
            suspect(on: id, Suspect(
                rule: .unsolicitedEvent,
                evidence: Evidence(
                    packet: packet, connection: activity.connection,
                    detail: "EVENT for \(activity.id)\(name)\(value): " + reasons.joined(separator: ", and ")),
                standsAlone: lacksEvents))
        default:
            break
        }
    }

    private mutating func suspect(on connectionID: Int, _ suspect: Suspect) {
        guard let count = connections[connectionID]?.suspects.count, count < maximumSuspects else { return }
        connections[connectionID]?.suspects.append(suspect)
    }

    // MARK: Closing

    private mutating func connectionClosed(_ summary: ConnectionSummary, in context: AuditContext, findings: inout FindingLedger) {
        guard let state = connections.removeValue(forKey: summary.connection.id) else { return }
        let gaps = summary.tcp[.controllerToAccessory]?.gaps ?? 0
        judgeSuspects(state, controllerDirectionWhole: state.controllerDirectionReadable && gaps == 0, findings: &findings)
        // The first oversize frame was reported as it came; the totals say how far it went.
        for (direction, frames) in summary.frames.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where frames.oversizeFrames > 1 {
            findings.record(.oversizeFrame, .connection(summary.connection), party: direction.sender, accessory: summary.deviceID, Evidence(
                packet: summary.lastPacket, connection: summary.connection,
                detail: "in all, \(frames.oversizeFrames) \(direction) frames were longer than 1024 bytes; "
                    + "the largest was \(frames.largestFrame) bytes"))
        }
    }

    private func judgeSuspects(_ state: ConnectionState, controllerDirectionWhole: Bool, findings: inout FindingLedger) {
        for suspect in state.suspects where controllerDirectionWhole || suspect.standsAlone {
            guard let connection = suspect.evidence.connection else { continue }
            findings.record(suspect.rule, .connection(connection), suspect.evidence)
        }
    }
}
