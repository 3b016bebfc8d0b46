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
            // HAP's design (a provisioned code's stored salt) is reported, at info at most.
            if misbehaviour.isByDesign {
                #expect(matching.allSatisfy { $0.severity == .info }, "\(name): \(misbehaviour) is by design, yet reported above info")
            }
        }
    }

    @Test("A capture's predecessor, audited before it in the same run, is a clean capture of the same accessory")
    func predecessorsAreClean() throws {
        #expect(RecordedCapture.predecessors == ["config-b": "config-a", "config-d": "config-c", "renumbered-b": "renumbered-a"])
        for name in RecordedCapture.predecessors.values {
            #expect(RecordedCapture.clean.contains(name))
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

    /// True observations in clean captures that break no rule a peer enforces, each at info:
    /// srp-mismatch's accessory sent a 383-byte B (ADK strips B's leading zeros too), and
    /// homekit_python's controller asks an ff=0 accessory for PairSetupWithAuth (its numbering of
    /// the methods; HAP-python ignores Method). Anything else in a clean capture is a false alarm.
    static let explainedObservations: [String: AuditRule] = ["srp-mismatch": .srpMalformed, "homekit-python-controller": .featureFlagMismatch]

    static func isExplained(_ finding: Finding, in name: String) -> Bool {
        explainedObservations[name] == finding.rule && finding.severity == .info
    }

    @Test("A clean capture has no finding, save the explained observations at info",
          arguments: RecordedCapture.clean)
    func cleanCapturesAreClean(_ name: String) throws {
        let capture = RecordedCapture(name)
        #expect(try capture.misbehaviours().isEmpty)
        let findings = try capture.auditAsTheUserWould().filter { !Self.isExplained($0, in: name) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("Without the key log a clean capture has no finding either: what cannot be seen is not held against anyone",
          arguments: RecordedCapture.clean)
    func cleanCapturesWithoutKeys(_ name: String) throws {
        let findings = try RecordedCapture(name).audit(keyLog: false).filter { !Self.isExplained($0, in: name) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("homekit_python's PairSetupWithAuth to an ff=0 accessory is the controller's, at info, and no downgrade")
    func homekitPythonMethodIsInfo() throws {
        let findings = try RecordedCapture("homekit-python-controller").auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.count == 1 && finding.rule == .featureFlagMismatch)
        #expect(finding.severity == .info && finding.party == .controller)
        #expect(finding.concerns(client: "10.77.0.1:49201"))
        let detail = try #require(finding.evidence.first?.detail)
        #expect(detail.contains("PairSetupWithAuth (1)") && detail.contains("no authentication is skipped"))
        #expect(!detail.contains("downgrade"))
        #expect(!findings.reachSeverity(.low))
    }

    @Test("The only finding on srp-mismatch is the 383-byte B of its first M2, at info, below --fail-on low")
    func srpMismatchReportsItsStrippedB() throws {
        let findings = try RecordedCapture("srp-mismatch").auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == .srpMalformed && finding.severity == .info && finding.party == .accessory)
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
