@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The session rules on `frame-faults`, `bad-events` and `unverified-access`.
@Suite("Session rules")
struct SessionRuleTests {
    @Test("Each frame fault is reported on its own connection, naming the frame counter it concerns",
          arguments: [
              (AuditRule.oversizeFrame, "10.77.0.1:49202", "frame counter 0"),
              (AuditRule.nonceSkip, "10.77.0.1:49203", "authenticates with counter 2"),
              (AuditRule.nonceReuse, "10.77.0.1:49204", "authenticates with counter 0"),
              (AuditRule.frameAuthFailure, "10.77.0.1:49205", "frame counter 3"),
              (AuditRule.plaintextAfterEncryption, "10.77.0.1:49206", "HTTP/1.1 200 OK"),
          ])
    func frameFaults(rule: AuditRule, client: String, words: String) throws {
        let findings = try RecordedCapture("frame-faults").auditAsTheUserWould().filter { $0.rule == rule }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.connection?.controller.description == client)
        #expect(finding.evidence.count == 1)
        #expect(finding.evidence.first?.detail.hasPrefix("accessory-to-controller") == true)
        #expect(finding.evidence.first?.detail.contains(words) == true)
    }

    @Test("Without a key log only what travels in clear is judged: the plaintext and the oversize length field")
    func faultsVisibleWithoutKeys() throws {
        let findings = try RecordedCapture("frame-faults").audit(keyLog: false)
        #expect(findings.contains { $0.rule == .plaintextAfterEncryption && $0.concerns(client: "10.77.0.1:49206") })
        #expect(findings.contains { $0.rule == .oversizeFrame && $0.concerns(client: "10.77.0.1:49202") })
        // Counters and tags need the keys; responses cannot be matched to requests nobody could read.
        #expect(Set(findings.map(\.rule)) == [.plaintextAfterEncryption, .oversizeFrame])
    }

    @Test("unsolicited-event names the unsubscribed On and the Model without ev, not the subscribed temperature")
    func unsolicitedEvents() throws {
        let finding = try #require(try RecordedCapture("bad-events").auditAsTheUserWould().first { $0.rule == .unsolicitedEvent })
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 2)
        #expect(details[0].hasPrefix("EVENT for 2.9 (On)") && details[0].contains("was not subscribed"))
        #expect(details[1].hasPrefix("EVENT for 2.4 (Model)") && details[1].contains("lack ev"))
        #expect(!details.contains { $0.contains("3.9") })
    }

    @Test("response-without-request names the repeated response on 49203, the connection's last accessory message")
    func strayResponse() throws {
        let finding = try #require(try RecordedCapture("unverified-access").auditAsTheUserWould()
            .first { $0.rule == .responseWithoutRequest })
        #expect(finding.connection?.controller.description == "10.77.0.1:49203")
        #expect(finding.evidence.count == 1)
        #expect(finding.evidence.first?.packet?.number == 68)
        #expect(finding.evidence.first?.detail.contains("4 request(s) had all been answered") == true)
    }
}
