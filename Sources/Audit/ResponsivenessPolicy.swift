import HAPEvents
import HAPJSON
import Packets

/// "No Response", as homes report it: `slow-response`, `late-response`, `unanswered-request`,
/// `closed-with-outstanding-requests` and `service-communication-failure`.
///
/// The analysis times every response (`HTTPMessageEvent.responseTiming` over IP,
/// `CharacteristicActivity.responseTiming` where a request carries characteristics itself, as a
/// CoAP PDU batch does) and lists the requests outstanding when a connection ends
/// (`ConnectionSummary.unansweredRequests`); this policy only turns those judgements into findings.
struct ResponsivenessPolicy: AuditPolicy {
    /// The response packet last judged per connection: the activities of one response body share
    /// its timing, which is one observation.
    private var lastTimedResponse: [Int: Int] = [:]

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .httpMessage(let http):
            guard let timing = http.responseTiming, timing.verdict != .prompt, let request = http.request else { return }
            let status = http.message.statusLine.map { " \($0.status)" } ?? ""
            let mark = timing.verdict == .pastTimeout
                ? "past the \(Self.seconds(ResponseTiming.abandonedResponseSeconds)) after which HAP-NodeJS gives up"
                : "past the \(Self.seconds(ResponseTiming.slowResponseSeconds)) slow mark"
            findings.record(
                .slowResponse, .connection(http.connection), severity: timing.verdict == .pastTimeout ? .medium : nil,
                accessory: context.connections[http.connection.id]?.deviceID,
                Evidence(packet: http.firstPacket, connection: http.connection,
                         detail: "\(request.method) \(request.target) (packet #\(request.packet.number)) answered\(status) after "
                             + "\(Self.seconds(timing.seconds)), \(mark)"))
        case .characteristic(let activity):
            timedActivity(activity, packet: event.packet, findings: &findings)
            // A write refused as a whole is recorded as -70402 too; only statuses the accessory
            // wrote into a read or an EVENT are its own words.
            guard activity.status == .unableToCommunicate, activity.kind == .read || activity.kind == .event else { return }
            let name = activity.name.map { " (\($0))" } ?? ""
            findings.record(
                .serviceCommunicationFailure, .connection(activity.connection), accessory: activity.deviceID,
                Evidence(packet: event.packet, connection: activity.connection,
                         detail: "\(activity.kind.rawValue) of \(activity.id)\(name) answered status \(HAPStatus.unableToCommunicate)"))
        case .connectionClosed(let summary):
            lastTimedResponse[summary.connection.id] = nil
            connectionClosed(summary, packet: event.packet, findings: &findings)
        default:
            break
        }
    }

    private mutating func timedActivity(_ activity: CharacteristicActivity, packet: PacketInfo?, findings: inout FindingLedger) {
        guard let timing = activity.responseTiming, timing.verdict != .prompt, let packet,
              lastTimedResponse.updateValue(packet.number, forKey: activity.connection.id) != packet.number else { return }
        let name = activity.name.map { " (\($0))" } ?? ""
        let request = activity.requestPacket.map { " (packet #\($0.number))" } ?? ""
        let rule: AuditRule
        let mark: String
        switch timing.verdict {
        case .afterControllerTimeout:
            rule = .lateResponse
            mark = "after the controller's \(Self.seconds(timing.controllerTimeoutSeconds ?? 0)) timeout had passed"
        case .pastTimeout:
            rule = .slowResponse
            mark = "past the \(Self.seconds(ResponseTiming.abandonedResponseSeconds)) after which HAP-NodeJS gives up"
        case .slow, .prompt:
            rule = .slowResponse
            mark = "past the \(Self.seconds(ResponseTiming.slowResponseSeconds)) slow mark"
        }
        findings.record(
            rule, .connection(activity.connection), severity: timing.verdict == .pastTimeout ? .medium : nil, accessory: activity.deviceID,
            Evidence(packet: packet, connection: activity.connection,
                     detail: "the request\(request) with the \(activity.kind.rawValue) of \(activity.id)\(name) answered after "
                         + "\(Self.seconds(timing.seconds)), \(mark)"))
    }

    private func connectionClosed(_ summary: ConnectionSummary, packet: PacketInfo?, findings: inout FindingLedger) {
        let unanswered = summary.unansweredRequests.filter { $0.isNeverAnswered(closedBy: summary.reason) }
        for outstanding in unanswered {
            let request = outstanding.request
            findings.record(
                .unansweredRequest, .connection(summary.connection), accessory: summary.deviceID,
                Evidence(packet: request.packet, connection: summary.connection,
                         detail: "\(request.method) \(request.target) was never answered: \(Self.seconds(outstanding.waitedSeconds)) "
                             + "later the connection \(Self.ending(summary.reason))"))
        }
        guard summary.reason == .closed || summary.reason == .reset, let first = unanswered.first else { return }
        findings.record(
            .closedWithOutstandingRequests, .connection(summary.connection), accessory: summary.deviceID,
            Evidence(packet: packet, connection: summary.connection,
                     detail: "the connection \(Self.ending(summary.reason)) with \(unanswered.count) request(s) outstanding, the "
                         + "oldest \(first.request.method) \(first.request.target) (packet #\(first.request.packet.number)), "
                         + "\(Self.seconds(first.waitedSeconds)) after it"))
    }

    private static func ending(_ reason: ConnectionCloseReason) -> String {
        switch reason {
        case .closed: "was closed (FIN)"
        case .reset: "was reset (RST)"
        case .captureEnded: "was still open when the capture ended"
        case .idleTimeout: "fell idle"
        case .evicted: "was dropped to stay within the connection limit"
        case .superseded: "was replaced by a new connection on the same ports"
        }
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return "\(rounded) s"
    }
}
