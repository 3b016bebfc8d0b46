@testable import Audit
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport

/// "No Response" and event behaviour on the recorded `slow-accessory` and `event-storm` (their truth
/// files and captures/README.md say what the patched peers did).
@Suite("No Response and event rules")
struct NoResponseRuleTests {
    static let slow = RecordedCapture("slow-accessory")
    static let storm = RecordedCapture("event-storm")

    private func messages(of capture: RecordedCapture) throws -> [HTTPMessageEvent] {
        var configuration = AnalysisConfiguration(keyLog: try capture.keyLog())
        configuration.setupCode = try capture.setupCodeAndID().code
        return try capture.events(configuration).compactMap { if case .httpMessage(let http) = $0.kind { http } else { nil } }
    }

    private func response(to target: String, in messages: [HTTPMessageEvent]) throws -> HTTPMessageEvent {
        try #require(messages.first { $0.request?.target == target })
    }

    @Test("each response carries the accessory's time, from the request's last packet to the response's first")
    func responsesCarryTheirLatency() throws {
        let messages = try messages(of: Self.slow)
        let expected: [(String, Double, ResponseTiming.Verdict)] = [
            ("/characteristics?id=6.11", 1.5, .prompt), ("/characteristics?id=4.10", 4.0, .slow), ("/characteristics?id=5.9", 9.0, .slow),
        ]
        for (target, seconds, verdict) in expected {
            let http = try response(to: target, in: messages)
            let timing = try #require(http.responseTiming)
            #expect(abs(timing.seconds - seconds) < 0.05, "\(target): \(timing.seconds)")
            #expect(timing.verdict == verdict, "\(target)")
            let request = try #require(http.request)
            #expect(timing.seconds == http.firstPacket.timestamp - request.packet.timestamp)
        }
    }

    @Test("slow-response names the 4 s and 9 s reads at their responses' first packets, not the 1.5 s one")
    func slowResponses() throws {
        let messages = try messages(of: Self.slow)
        let finding = try #require(try Self.slow.auditAsTheUserWould().first { $0.rule == .slowResponse })
        #expect(finding.connection?.controller.description == "10.77.0.1:49203")
        #expect(finding.severity == .low && finding.party == .accessory)
        let packets = finding.evidence.compactMap(\.packet?.number)
        let late = try ["/characteristics?id=4.10", "/characteristics?id=5.9"].map { try response(to: $0, in: messages).firstPacket.number }
        #expect(packets == late)
        #expect(finding.evidence.allSatisfy { !$0.detail.contains("6.11") })
    }

    @Test("the read never answered is unanswered-request at its request, and the FIN with it outstanding is closed-with-outstanding-requests")
    func unansweredReadAndClose() throws {
        let findings = try Self.slow.auditAsTheUserWould()
        let unanswered = try #require(findings.first { $0.rule == .unansweredRequest })
        #expect(unanswered.concerns(client: "10.77.0.1:49204") && unanswered.evidence.count == 1)
        #expect(unanswered.evidence[0].detail.hasPrefix("GET /characteristics?id=2.10 was never answered"))
        let closed = try #require(findings.first { $0.rule == .closedWithOutstandingRequests })
        #expect(closed.concerns(client: "10.77.0.1:49204"))
        let detail = closed.evidence[0].detail
        #expect(detail.contains("closed (FIN)") && detail.contains("1 request(s) outstanding"))
        // aiohomekit waits 30 s before it gives up on the read.
        let request = try #require(unanswered.evidence[0].packet), fin = try #require(closed.evidence[0].packet)
        #expect(abs((fin.timestamp - request.timestamp) - 30) < 0.5)
    }

    @Test("the -70402 of the unreachable bridged sensor is service-communication-failure, and its neighbour's status 0 is not")
    func serviceCommunicationFailure() throws {
        let finding = try #require(try Self.slow.auditAsTheUserWould().first { $0.rule == .serviceCommunicationFailure })
        #expect(finding.concerns(client: "10.77.0.1:49202") && finding.evidence.count == 1)
        #expect(finding.evidence[0].detail.hasPrefix("read of 8.9"))
        #expect(finding.evidence[0].detail.contains("-70402"))
    }

    @Test("the light level's 25 EVENTs in a second are one burst, reported at the third")
    func eventBurst() throws {
        let messages = try messages(of: Self.storm)
        let events = messages.filter { $0.message.kind == .event && $0.message.body.count > 0 }
        let bursts = events.filter { !$0.notificationProblems.isEmpty && $0.notificationProblems.allSatisfy { if case .burst = $0 { true } else { false } } }
        #expect(bursts.count == 1)
        let finding = try #require(try Self.storm.auditAsTheUserWould().first { $0.rule == .eventBurst })
        #expect(finding.evidence.count == 1 && finding.evidence[0].detail.contains("8.9"))
        #expect(finding.evidence[0].packet == bursts.first?.lastPacket)
    }

    @Test("the motion EVENT sent 0.3 s into the held read is inside the response; the one after ev false is after unsubscribing")
    func eventsInsideResponseAndAfterUnsubscribing() throws {
        let findings = try Self.storm.auditAsTheUserWould()
        let inside = try #require(findings.first { $0.rule == .eventInsideResponse })
        #expect(inside.evidence.count == 1 && inside.evidence[0].detail.contains("GET /characteristics?id=6.11"))
        let after = try #require(findings.first { $0.rule == .eventAfterUnsubscribe })
        #expect(after.evidence.count == 1 && after.evidence[0].detail.hasPrefix("EVENT for 9.9"))
        // Subscribed earlier on this connection, so not unsolicited.
        #expect(!findings.contains { $0.rule == .unsolicitedEvent })
    }
}
