import HAPEvents
import HAPJSON

/// How an accessory notifies: `event-burst`, `event-inside-response` and
/// `event-after-unsubscribe`, from the problems the analysis found on each EVENT
/// (`HTTPMessageEvent.notificationProblems`).
struct NotificationPolicy: AuditPolicy {
    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        guard case .httpMessage(let http) = event.kind, !http.notificationProblems.isEmpty else { return }
        let accessory = context.connections[http.connection.id]?.deviceID
        let database = context.accessoryKey(of: http.connection.id).flatMap { context.database(of: $0) }
        func named(_ id: CharacteristicID) -> String {
            database?.characteristic(id)?.name.map { "\(id) (\($0))" } ?? id.description
        }
        for problem in http.notificationProblems {
            let rule: AuditRule
            let detail: String
            switch problem {
            case .burst(let id, let seconds):
                rule = .eventBurst
                detail = "\(NotificationProblem.eventsInABurst) EVENTs for \(named(id)) within \(ResponsivenessPolicy.seconds(seconds)), "
                    + "where HAP's coalescing allows at most \(NotificationProblem.eventsInABurst - 1) a second"
            case .insideResponse(let request, let seconds):
                rule = .eventInsideResponse
                detail = "EVENT sent \(ResponsivenessPolicy.seconds(seconds)) after \(request.method) \(request.target) "
                    + "(packet #\(request.packet.number)) was complete, before its response"
            case .afterUnsubscribe(let id, let unsubscribedAt):
                rule = .eventAfterUnsubscribe
                detail = "EVENT for \(named(id)) after the accessory answered its \"ev\": false in packet #\(unsubscribedAt.number)"
            }
            findings.record(rule, .connection(http.connection), accessory: accessory,
                            Evidence(packet: http.lastPacket, connection: http.connection, detail: detail))
        }
    }
}
