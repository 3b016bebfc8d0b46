@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The attribute-database rules on `bad-database` and `bad-json`.
@Suite("Database rules")
struct DatabaseRuleTests {
    private func finding(_ rule: AuditRule, in name: String = "bad-database") throws -> Finding {
        try #require(try RecordedCapture(name).auditAsTheUserWould().first { $0.rule == rule })
    }

    @Test("invalid-json names the first invalid byte of each broken body: the raw 0x07 and the cut-off string")
    func invalidJSON() throws {
        let finding = try finding(.invalidJSON, in: "bad-json")
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 2)
        #expect(details[0].contains("response #2") && details[0].contains("malformed at byte 972"))
        #expect(details[1].contains("response #3") && details[1].contains("truncated at byte 1731"))
    }

    @Test("Each database problem is one observation, counted again in the second fetch",
          arguments: [
              (AuditRule.duplicateAID, ["(/accessories/9): aid 5"]),
              (AuditRule.duplicateIID, ["(/accessories/8/services/1/characteristics/1): characteristic iid 9"]),
              (AuditRule.missingAccessoryInformation, ["accessory 8 has no Accessory Information", "lacks Serial Number (30)"]),
              (AuditRule.unknownAppleType, ["type FF42"]),
          ])
    func databaseProblems(rule: AuditRule, words: [String]) throws {
        let finding = try finding(rule)
        #expect(finding.accessory == "1A:2B:3C:4D:5E:6F")
        #expect(finding.evidence.count == words.count)
        for (evidence, words) in zip(finding.evidence, words) {
            #expect(evidence.detail.contains(words))
            #expect(evidence.packet?.number == 43)
            #expect(evidence.occurrences == 2 && evidence.lastPacket?.number == 56)
        }
    }

    @Test("value-out-of-range names the four bad values in the database and in the read that returned them")
    func valuesOutOfRange() throws {
        let details = try finding(.valueOutOfRange).evidence.map(\.detail)
        #expect(details.count == 8)
        for words in ["Brightness value 150", "Current Temperature value 21.55", "Outlet In Use value \"yes\"",
                      "Current Heating Cooling State value 2", "a read of 2.10 (Brightness) gave 150",
                      "a read of 3.9 (Current Temperature) gave 21.55", "a read of 6.9", "a read of 4.10"] {
            #expect(details.contains { $0.contains(words) }, "\(words)")
        }
    }

    @Test("write-rejected groups the two rejected writes by their HAP status")
    func rejectedWrites() throws {
        let finding = try finding(.writeRejected)
        #expect(finding.severity == .info)
        #expect(finding.connection?.controller.description == "10.77.0.1:49202")
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 2)
        #expect(details.contains { $0.contains("-70404") && $0.contains("3.9 (Current Temperature) ← 30.0") })
        #expect(details.contains { $0.contains("-70410") && $0.contains("6.12 (Target Temperature) ← 45.0") })
    }
}
