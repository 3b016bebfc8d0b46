@testable import Audit
import Foundation
import HAPCore
import HAPEvents
import Testing
import TestSupport

@Suite("Rule catalogue")
struct AuditRuleTests {
    @Test("Rule identifiers are unique and read category/slug")
    func identifiers() {
        let ids = AuditRule.catalogue.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in AuditRule.catalogue {
            #expect(rule.id == "\(rule.category)/\(rule.slug)")
            #expect(!rule.title.isEmpty && !rule.explanation.isEmpty && !rule.severityReason.isEmpty)
            #expect(rule.reference.contains("PROTOCOL.md §") || rule.reference.contains("RFC "))
        }
    }

    @Test("A rule is found by its identifier or its slug, and nothing else is")
    func lookup() {
        #expect(AuditRule.named("pairing/unverified-request") == .unverifiedRequest)
        #expect(AuditRule.named("nonce-reuse") == .nonceReuse)
        #expect(AuditRule.named("session/unverified-request") == nil)
        #expect(AuditRule.named("") == nil)
    }

    @Test("The catalogue lists the rules by category: pairing, session, discovery, database")
    func categoryOrder() {
        let categories = AuditRule.catalogue.map(\.category)
        #expect(categories == categories.sorted { AuditRule.Category.allCases.firstIndex(of: $0)! < AuditRule.Category.allCases.firstIndex(of: $1)! })
    }

    @Test("docs/audit-rules.md documents every rule of the catalogue, with its severity")
    func documentation() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/audit-rules.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        for rule in AuditRule.catalogue {
            #expect(text.contains("### `\(rule.id)`"), "\(rule.id) is not documented")
            #expect(text.contains("| `\(rule.id)` | \(rule.severity) |"), "\(rule.id) has no summary row with its severity")
        }
    }
}

@Suite("Severity")
struct SeverityTests {
    @Test("Severities order info < low < medium < high")
    func order() {
        #expect(Severity.allCases == [.info, .low, .medium, .high])
        #expect(Severity.info < Severity.low && Severity.low < Severity.medium && Severity.medium < Severity.high)
    }

    @Test("A severity is read from its name in any case, and nothing else")
    func names() {
        #expect(Severity(name: "medium") == .medium)
        #expect(Severity(name: "HIGH") == .high)
        #expect(Severity(name: "critical") == nil)
        #expect(Severity.allCases.map(\.name) == ["info", "low", "medium", "high"])
    }

    @Test("--fail-on is reached by a finding at or above the threshold")
    func failOn() throws {
        let findings = try RecordedCapture("frame-faults").auditAsTheUserWould()
        #expect(findings.highestSeverity == .high)
        #expect(findings.reachSeverity(.high))
        let lowOnly = findings.filter { $0.severity == .low }
        #expect(lowOnly.reachSeverity(.low) && !lowOnly.reachSeverity(.medium))
        #expect(![Finding]().reachSeverity(.info))
        #expect([Finding]().highestSeverity == nil)
    }
}
