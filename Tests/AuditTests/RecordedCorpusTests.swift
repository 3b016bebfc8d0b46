@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The audit judged against the corpus's own ground truth: each misbehaving capture's truth file
/// lists the misbehaviours the recording toolkit committed on purpose, and the clean captures list
/// none. The expectations come from those files, not from the audit's code.
@Suite("The audit of the recorded corpus")
struct RecordedCorpusTests {
    @Test("Every misbehaviour a truth file declares is found, on the connection it names",
          arguments: RecordedCapture.misbehaving)
    func everyDeclaredMisbehaviourIsFound(_ name: String) throws {
        let capture = RecordedCapture(name)
        let misbehaviours = try capture.misbehaviours()
        let findings = try capture.auditAsTheUserWould()
        #expect(!misbehaviours.isEmpty)
        for misbehaviour in misbehaviours {
            let rule = try #require(AuditRule.named(misbehaviour.rule), "no audit rule named \(misbehaviour.rule)")
            let matching = findings.filter { $0.rule == rule }
            #expect(!matching.isEmpty, "\(name): \(misbehaviour) was not found")
            if let client = misbehaviour.connection {
                #expect(matching.contains { $0.concerns(client: client) }, "\(name): \(misbehaviour) not found on \(client)")
            }
        }
    }

    @Test("A misbehaving capture triggers no rule beyond those its truth file declares",
          arguments: RecordedCapture.misbehaving)
    func nothingBeyondTheDeclaredMisbehaviours(_ name: String) throws {
        let capture = RecordedCapture(name)
        let declared = Set(try capture.misbehaviours().map(\.rule))
        let found = Set(try capture.auditAsTheUserWould().map(\.rule.slug))
        #expect(found == declared)
    }

    /// srp-mismatch is clean, but its accessory sent a 383-byte B: a true observation that breaks
    /// no rule HAP implementations enforce (ADK strips B's leading zeros too), kept at info.
    static func isTheExplainedStrippedB(_ finding: Finding, in name: String) -> Bool {
        name == "srp-mismatch" && finding.rule == .srpMalformed && finding.severity == .info
    }

    @Test("A clean capture has no finding, save srp-mismatch's stripped B at info",
          arguments: RecordedCapture.clean)
    func cleanCapturesAreClean(_ name: String) throws {
        let capture = RecordedCapture(name)
        #expect(try capture.misbehaviours().isEmpty)
        let findings = try capture.auditAsTheUserWould().filter { !Self.isTheExplainedStrippedB($0, in: name) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("Without the key log a clean capture has no finding either: what cannot be seen is not held against anyone",
          arguments: RecordedCapture.clean)
    func cleanCapturesWithoutKeys(_ name: String) throws {
        let findings = try RecordedCapture(name).audit(keyLog: false).filter { !Self.isTheExplainedStrippedB($0, in: name) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("The only finding on srp-mismatch is the 383-byte B of its first M2, at info, below --fail-on low")
    func srpMismatchReportsItsStrippedB() throws {
        let findings = try RecordedCapture("srp-mismatch").auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == .srpMalformed && finding.severity == .info)
        #expect(finding.concerns(client: "10.77.0.1:49201"))
        #expect(finding.evidence.count == 1)
        #expect(finding.evidence.first?.detail.contains("B of 383 bytes") == true)
        #expect(!findings.reachSeverity(.low))
    }

    @Test("Every rule slug in the truth files names a rule of the catalogue",
          arguments: RecordedCapture.misbehaving)
    func truthSlugsAreCatalogued(_ name: String) throws {
        for misbehaviour in try RecordedCapture(name).misbehaviours() {
            #expect(AuditRule.named(misbehaviour.rule) != nil, "\(misbehaviour.rule)")
        }
    }
}
