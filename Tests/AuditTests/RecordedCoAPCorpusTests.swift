@testable import Audit
import Foundation
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// The audit of HAP over CoAP judged against the corpus's ground truth (captures/coap/): each
/// misbehaving capture's declared rule is found on the controller endpoint its truth names, at the
/// packet the truth's CoAP message was sent in; the CoAP rules are silent on every other recorded
/// capture, of any transport.
@Suite("The audit of the recorded HAP-over-CoAP corpus")
struct RecordedCoAPCorpusTests {
    static let directory = RecordedCapture.directory.appendingPathComponent("coap")
    static let scenarios: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".truth.json") }.map { "coap/" + $0.dropLast(".truth.json".count) }.sorted()
    }()
    static let misbehaving = scenarios.filter { (try? RecordedCapture($0).misbehaviours().isEmpty) == false }
    static let ble: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: RecordedCapture.directory.appendingPathComponent("ble").path)) ?? []
        return files.filter { $0.hasSuffix(".truth.json") }.map { "ble/" + $0.dropLast(".truth.json".count) }.sorted()
    }()

    /// The rules HAP over CoAP brought.
    static let coapRules: [AuditRule] = [.counterDrift, .retransmissionDiffers, .lateResponse]

    @Test("The CoAP corpus has its seven scenarios, four of them misbehaving")
    func corpus() {
        #expect(Self.scenarios.count == 7)
        #expect(Self.misbehaving == ["coap/counter-drift", "coap/late-response", "coap/plaintext-after-encryption", "coap/retransmission-differs"])
    }

    @Test("Every misbehaviour a CoAP truth file declares is found, on the controller endpoint it names",
          arguments: misbehaving)
    func declaredMisbehaviourIsFound(_ name: String) throws {
        for (misbehaviour, matching) in try RecordedCapture(name).findingsOfDeclaredMisbehaviours() {
            #expect(matching.count == 1, "\(name): \(misbehaviour)")
            if let client = misbehaviour.connection {
                #expect(matching.contains { $0.concerns(client: client) }, "\(name): \(misbehaviour) not found on \(client)")
            }
        }
    }

    @Test("A clean CoAP capture has no finding, with its key log and without", arguments: scenarios.filter { !misbehaving.contains($0) })
    func cleanCapturesAreClean(_ name: String) throws {
        let capture = RecordedCapture(name)
        for findings in [try capture.auditAsTheUserWould(), try capture.audit(keyLog: false)] {
            #expect(findings.isEmpty, "\(name): \(findings.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test("A misbehaving CoAP capture triggers no rule beyond the one its truth file declares", arguments: misbehaving)
    func nothingBeyondTheDeclared(_ name: String) throws {
        let capture = RecordedCapture(name)
        let declared = Set(try capture.misbehaviours().map(\.rule))
        #expect(Set(try capture.auditAsTheUserWould().map(\.rule.slug)) == declared)
    }

    @Test("A CoAP rule fires nowhere but where a truth file declares it: IP, Bluetooth LE and CoAP captures",
          arguments: RecordedCapture.all + ble + scenarios)
    func coapRulesAreSilentElsewhere(_ name: String) throws {
        let capture = RecordedCapture(name)
        let declared = Set(try capture.misbehaviours().compactMap { AuditRule.named($0.rule) })
        let found = Set(try capture.auditAsTheUserWould().map(\.rule)).intersection(Self.coapRules)
        #expect(found.isSubset(of: declared), "\(name): \(found.subtracting(declared).map(\.id))")
    }

    /// The time at which the truth says a peer handed the CoAP message `index` to its socket.
    private func sentTime(_ capture: RecordedCapture, _ index: Int) throws -> Double {
        let messages = try #require(try capture.truth()["coap"]?.arrayValue)
        return try #require(messages[index]["time"]?.numberValue?.doubleValue)
    }

    /// The truth's CoAP message index carrying the response sealed under `counter`.
    private func responseMessage(_ capture: RecordedCapture, counter: Int64) throws -> Int {
        let pdus = try #require(try capture.truth()["pdus"]?.arrayValue)
        let pdu = try #require(pdus.first {
            $0["kind"]?.stringValue == "response" && $0["encryption"]?["counter"]?.numberValue?.int64Value == counter
        })
        return try #require(pdu["coap"]?.numberValue?.int64Value.map(Int.init))
    }

    @Test("counter-drift: one finding, medium because aiohomekit cannot reach the second drift, at the truth's two packets")
    func counterDrift() throws {
        let capture = RecordedCapture("coap/counter-drift")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .counterDrift })
        #expect(finding.severity == .medium && finding.party == .accessory)
        #expect(finding.evidence.count == 2)
        // The truth's details: "… sealed with counter 22 where 19 was due (skips 3)".
        let drifts = try capture.misbehaviours().map { misbehaviour -> (opened: Int64, due: Int64) in
            let words = misbehaviour.detail.split(separator: " ")
            let counter = try #require(words.firstIndex(of: "counter"))
            return (try #require(Int64(words[counter + 1])), try #require(Int64(words[counter + 3])))
        }
        try #require(drifts.count == 2)
        // aiohomekit searches 5 either side: it reads the first and drops the session at the second.
        #expect(drifts[0].opened - drifts[0].due <= 5 && drifts[1].opened - drifts[1].due > 5)
        let details = finding.evidence.map(\.detail)
        #expect(details[0].contains("counter \(drifts[0].opened) where \(drifts[0].due) was due, within the receiver's recovery search"))
        #expect(details[1].contains("counter \(drifts[1].opened) where \(drifts[1].due) was due, beyond the receiver's recovery search"))
        for (evidence, counter) in zip(finding.evidence, drifts.map(\.opened)) {
            let sent = try sentTime(capture, try responseMessage(capture, counter: counter))
            let packet = try #require(evidence.packet)
            #expect(abs(packet.timestamp.timeInterval - sent) < 0.05, "counter \(counter)")
        }
        // The IP rule, whose receivers drop the session at once, does not judge CoAP's counters.
        #expect(try !capture.auditAsTheUserWould().contains { $0.rule == .nonceSkip })
    }

    @Test("late-response: the separate 2.04 the accessory sent 17 s after the request, past aiohomekit's 16 s")
    func lateResponse() throws {
        let capture = RecordedCapture("coap/late-response")
        let findings = try capture.auditAsTheUserWould()
        let finding = try #require(findings.first { $0.rule == .lateResponse })
        #expect(finding.severity == .medium)
        let evidence = try #require(finding.evidence.first)
        #expect(finding.evidence.count == 1)
        let messages = try #require(try capture.truth()["coap"]?.arrayValue)
        let late = try #require(messages.indices.first {
            messages[$0]["sender"]?.stringValue == "accessory" && messages[$0]["type"]?.stringValue == "CON"
                && messages[$0]["code"]?.stringValue == "2.04 Changed"
        })
        let packet = try #require(evidence.packet)
        #expect(abs(packet.timestamp.timeInterval - (try sentTime(capture, late))) < 0.05)
        #expect(evidence.detail.contains("after the controller's 16.0 s timeout had passed"))
        // Judged once: a late answer is not also a slow one.
        #expect(!findings.contains { $0.rule == .slowResponse })
    }

    @Test("retransmission-differs: the copy of the event PUT, at the truth's retransmitted message")
    func retransmissionDiffers() throws {
        let capture = RecordedCapture("coap/retransmission-differs")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .retransmissionDiffers })
        #expect(finding.party == .accessory)
        let messages = try #require(try capture.truth()["coap"]?.arrayValue)
        let copy = try #require(messages.indices.first {
            messages[$0]["retransmission"]?.boolValue == true && messages[$0]["code"]?.stringValue == "PUT"
        })
        let packet = try #require(finding.evidence.first?.packet)
        #expect(abs(packet.timestamp.timeInterval - (try sentTime(capture, copy))) < 0.05)
    }

    @Test("plaintext-after-encryption: the 11-byte plaintext response, at the truth's message")
    func plaintextAfterEncryption() throws {
        let capture = RecordedCapture("coap/plaintext-after-encryption")
        let finding = try #require(try capture.auditAsTheUserWould().first { $0.rule == .plaintextAfterEncryption })
        let pdus = try #require(try capture.truth()["pdus"]?.arrayValue)
        let plaintext = try #require(pdus.first { $0["kind"]?.stringValue == "response" && $0["encryption"]?.isNull == true })
        let index = try #require(plaintext["coap"]?.numberValue?.int64Value.map(Int.init))
        let packet = try #require(finding.evidence.first?.packet)
        #expect(abs(packet.timestamp.timeInterval - (try sentTime(capture, index))) < 0.05)
    }
}
