@testable import Audit
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport

@Suite("Finding ledger")
struct FindingLedgerTests {
    private static let connection = ConnectionInfo(
        tcpConnection: 7, controller: Endpoint(address: .v4(0x0A4D_0001), port: 49201), accessory: Endpoint(address: .v4(0x0A4D_0002), port: 51826))

    private static func packet(_ number: Int) -> PacketInfo {
        PacketInfo(number: number, timestamp: Timestamp(seconds: 1_700_000_000 + Int64(number), nanoseconds: 500_000),
                   capturedLength: 60, originalLength: 60)
    }

    @Test("Observations of one rule on one connection make one finding, in capture order")
    func oneFindingPerRuleAndScope() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        ledger.record(.nonceSkip, .connection(Self.connection), Evidence(packet: Self.packet(9), connection: Self.connection, detail: "b"))
        ledger.record(.nonceSkip, .connection(Self.connection), Evidence(packet: Self.packet(3), connection: Self.connection, detail: "a"))
        ledger.record(.nonceSkip, .accessory("1A:2B:3C:4D:5E:6F"), Evidence(packet: Self.packet(5), detail: "c"))
        let findings = ledger.sortedFindings
        #expect(findings.count == 2)
        #expect(findings[0].evidence.map(\.detail) == ["a", "b"])
        #expect(findings[0].connection == Self.connection && findings[0].accessory == nil)
        #expect(findings[1].connection == nil && findings[1].accessory == "1A:2B:3C:4D:5E:6F")
    }

    @Test("A recurring observation is counted with where it was last seen, not repeated")
    func recurringObservations() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        for number in [4, 8, 15] {
            ledger.record(.txtMalformed, .accessory("x"), Evidence(packet: Self.packet(number), detail: "pv=1 is not X.Y"))
        }
        let evidence = ledger.sortedFindings[0].evidence
        #expect(evidence.count == 1)
        #expect(evidence[0].occurrences == 3)
        #expect(evidence[0].packet?.number == 4 && evidence[0].lastPacket?.number == 15)
        #expect(evidence[0].description.hasSuffix("(seen 3 times, last in packet #15)"))
    }

    @Test("Evidence beyond the limit is counted but not kept")
    func evidenceIsBounded() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 2)
        for number in 1...5 {
            ledger.record(.valueOutOfRange, .accessory("x"), Evidence(packet: Self.packet(number), detail: "value \(number)"))
        }
        let finding = ledger.sortedFindings[0]
        #expect(finding.evidence.map(\.detail) == ["value 1", "value 2"])
        #expect(finding.omittedEvidenceCount == 3)
        #expect(finding.description.hasSuffix("… and 3 more observations, not listed"))
    }

    @Test("A finding takes the highest severity its observations call for; findings come most severe first")
    func severityOrdering() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        ledger.record(.oversizeFrame, .connection(Self.connection), Evidence(packet: Self.packet(1), detail: "low"))
        ledger.record(.srpMalformed, .connection(Self.connection), severity: .info, Evidence(packet: Self.packet(2), detail: "stripped"))
        #expect(ledger.sortedFindings.map(\.severity) == [.low, .info])
        ledger.record(.srpMalformed, .connection(Self.connection), severity: .high, Evidence(packet: Self.packet(3), detail: "A = 0"))
        #expect(ledger.sortedFindings.map(\.rule) == [.srpMalformed, .oversizeFrame])
        #expect(ledger.sortedFindings.map(\.severity) == [.high, .low])
    }

    @Test("The plain-text description names the rule, the place, the reason and each observation")
    func plainText() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        ledger.record(.nonceReuse, .connection(Self.connection), Evidence(packet: Self.packet(12), connection: Self.connection, detail: "counter 0 again"))
        let lines = ledger.sortedFindings[0].description.split(separator: "\n").map(String.init)
        #expect(lines[0] == "HIGH session/nonce-reuse: Frame nonce counter reused")
        #expect(lines[1] == "  departs from HAP: the accessory")
        #expect(lines[2] == "  on #7 10.77.0.1:49201 → 10.77.0.2:51826")
        #expect(lines[3].hasPrefix("  why: A frame was sealed with a counter value"))
        #expect(lines[4].hasPrefix("  rule: PROTOCOL.md §4.2"))
        #expect(lines.last == "    packet #12 (1700000012.000500 s): counter 0 again")
    }

    @Test("A rule broken by both parties on one connection is two findings, each naming its party")
    func partiesAreSeparateFindings() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        ledger.record(.nonceSkip, .connection(Self.connection), party: .accessory, Evidence(packet: Self.packet(3), detail: "accessory frame"))
        ledger.record(.nonceSkip, .connection(Self.connection), party: .controller, Evidence(packet: Self.packet(4), detail: "controller frame"))
        ledger.record(.nonceSkip, .connection(Self.connection), Evidence(packet: Self.packet(5), detail: "accessory again"))
        let findings = ledger.sortedFindings
        #expect(findings.map(\.party) == [.accessory, .controller])
        #expect(findings.map(\.evidence.count) == [2, 1])
        #expect(AuditRule.featureFlagMismatch.party == .controller && AuditRule.unverifiedRequest.party == .accessory)
    }

    @Test("What the audit held against a packet is listed by rule, for findings that point at other findings")
    func rulesAtAPacket() {
        var ledger = FindingLedger(maximumEvidencePerFinding: 10)
        ledger.record(.formatMismatch, .accessory("x"), Evidence(packet: Self.packet(7), detail: "a"))
        ledger.record(.invalidName, .accessory("x"), Evidence(packet: Self.packet(7), detail: "b"))
        ledger.record(.invalidName, .accessory("x"), Evidence(packet: Self.packet(8), detail: "c"))
        ledger.record(.duplicateName, .accessory("x"), Evidence(packet: Self.packet(9), detail: "d"))
        #expect(ledger.rules(withEvidenceAt: Self.packet(7)) == [.formatMismatch, .invalidName])
        #expect(ledger.rules(withEvidenceAt: Self.packet(1)).isEmpty)
    }
}
