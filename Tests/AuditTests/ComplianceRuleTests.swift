@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The rules of issue 17 on the captures recorded for them: each finding names the aid, the iid and
/// the byte offset in the body, and who departs from HAP.
@Suite("Compliance and limits")
struct ComplianceRuleTests {
    private static let findings = Result { try RecordedCapture("out-of-compliance").auditAsTheUserWould() }
    private static let limits = Result { try RecordedCapture("over-limits").auditAsTheUserWould() }

    private func details(_ rule: AuditRule, in findings: Result<[Finding], any Error>) throws -> [String] {
        let finding = try #require(try findings.get().first { $0.rule == rule }, "\(rule.id) not found")
        #expect(finding.party == .accessory)
        #expect(finding.accessory == "1A:2B:3C:4D:5E:6F")
        #expect(finding.evidence.allSatisfy { $0.connection?.controller.description == "10.77.0.1:49202" })
        return finding.evidence.map(\.detail)
    }

    @Test("Each catalogue rule names the element by its JSON Pointer and body offset, in the one GET /accessories",
          arguments: [
              (AuditRule.missingRequiredCharacteristic, ["(/accessories/3/services/1): Thermostat service 4.8 lacks Target Temperature (35)"]),
              (AuditRule.unexpectedCharacteristic, ["(/accessories/4/services/1/characteristics/1): Brightness (8) sits in service iid 8 (Switch)"]),
              (AuditRule.invalidName, ["Configured Name \"#Living Room*\" starts with \"#\"", "Name \"Coffee Maker ☕\" ends with U+2615 HOT BEVERAGE"]),
              (AuditRule.invalidPermissions, ["(/accessories/4/services/1/characteristics/0): a characteristic needs \"perms\"", "On has permission \"rw\""]),
              (AuditRule.duplicateName, ["service 2.8 (Lightbulb) has 2 Name characteristics (iids 11, 12)"]),
              (AuditRule.formatMismatch, ["Brightness has format float; the sources give int"]),
              (AuditRule.unitMismatch, ["Current Temperature has unit percentage; the sources give celsius"]),
          ])
    func catalogueRules(rule: AuditRule, words: [String]) throws {
        let details = try details(rule, in: Self.findings)
        #expect(details.count == words.count)
        for (detail, words) in zip(details, words) {
            #expect(detail.hasPrefix("GET /accessories response, body byte "), "\(detail)")
            #expect(detail.contains(words), "\(detail)")
        }
    }

    @Test("Missing perms is medium; an undefined perm next to defined ones alone would be low")
    func permissionSeverities() throws {
        let finding = try #require(try Self.findings.get().first { $0.rule == .invalidPermissions })
        #expect(finding.severity == .medium)
        #expect(DatabasePolicy.severity(of: .init(.unknownPermission, .warning, path: "", offset: 0, message: "")) == .low)
    }

    @Test("over-limits: 151 accessories, 102 services, 101 characteristics and a 138 193-byte body, in the second fetch")
    func limits() throws {
        let accessories = try details(.tooManyAccessories, in: Self.limits)
        #expect(accessories == ["GET /accessories response, body byte 124804 (/accessories/150): the database lists 151 accessories; HAP allows at most 150 (the bridge and 149 bridged ones), and this is the 151st"])
        #expect(try details(.tooManyServices, in: Self.limits).first?.contains("accessory 151 has 102 services") == true)
        #expect(try details(.tooManyCharacteristics, in: Self.limits).first?.contains("service 152.8 (E2D2A000-6B6E-4C1B-9B9E-68617073636F) has 101 characteristics") == true)
        let size = try details(.databaseTooLarge, in: Self.limits)
        #expect(size.first?.contains("response #2 on this connection is 138193 bytes, more than the 131072 bytes") == true)
        // The first, small fetch is fine: only the second one carries the findings.
        #expect(try Self.limits.get().allSatisfy { $0.evidence.allSatisfy { $0.packet?.number == 151 } })
        let thresholds = { var thresholds = AuditThresholds(); thresholds.maximumDatabaseBytes = 200_000; return thresholds }()
        #expect(try !RecordedCapture("over-limits").audit(thresholds: thresholds).contains { $0.rule == .databaseTooLarge })
    }

    @Test("malformed-characteristics-body names each ADK read response at the byte where it breaks, with its request")
    func malformedReadResponses() throws {
        let findings = try RecordedCapture("adk-bad-metadata").auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.count == 1 && finding.rule == .malformedCharacteristicsBody)
        #expect(finding.severity == .low && finding.party == .accessory)
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 3)
        #expect(details[0].hasPrefix("the read response to GET /characteristics?id=1.51&meta=1&perms=1&type=1&ev=1 (packet #42)"))
        #expect(details[0].contains("a 114-byte body, is not valid JSON: json: malformed at byte 84"))
        #expect(details[1].contains("GET /characteristics?id=1.50,1.51&perms=1") && details[1].contains("at byte 67"))
        #expect(details[2].contains("GET /characteristics?id=1.51&ev=1") && details[2].contains("at byte 53"))
    }
}
