@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// Pairings lost, and the salt a provisioned code keeps (issues 17 and 22).
@Suite("Lost pairings and setup codes")
struct PairingLifecycleRuleTests {
    @Test("pairing-removed-after-setup names the controller's own Remove Pairing and the database it read")
    func removedAfterSetup() throws {
        let findings = try RecordedCapture("removed-after-setup").auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.count == 1 && finding.rule == .pairingRemovedAfterSetup)
        #expect(finding.severity == .medium && finding.party == .accessory)
        #expect(finding.connection?.controller.description == "10.77.0.1:49202")
        let detail = try #require(finding.evidence.first?.detail)
        #expect(detail.hasPrefix("controller d72c1c94-8193-41ba-9f6d-29361df19918, paired by a pair setup in this capture"))
        #expect(detail.contains("1 GET /accessories, the last answered in packet #38"))
        #expect(detail.contains("hapscope found nothing against that database"))
    }

    @Test("lost-pairings: the hub's failing pair verify, and sf=0 kept after every pairing went")
    func lostPairings() throws {
        let findings = try RecordedCapture("lost-pairings").auditAsTheUserWould()
        #expect(Set(findings.map(\.rule)) == [.verifyAfterRemoval, .statusFlagNotRestored])
        let verify = try #require(findings.first { $0.rule == .verifyAfterRemoval })
        #expect(verify.severity == .low && verify.party == .controller)
        #expect(verify.connection?.controller.description == "10.77.0.1:49204")
        #expect(verify.evidence.first?.detail.contains("failed at M2 Error=Authentication (2)") == true)
        let flags = try #require(findings.first { $0.rule == .statusFlagNotRestored })
        #expect(flags.severity == .medium && flags.party == .accessory)
        #expect(flags.accessory == "hapscope Home Bridge 4D5E6F._hap._tcp.local")
        #expect(flags.evidence.first?.detail.contains("none of the 4 advertisement(s) since") == true)
        // With a grace longer than the capture's tail, nothing is judged.
        var patient = AuditThresholds()
        patient.statusFlagRestoreGracePeriod = 10
        #expect(try !RecordedCapture("lost-pairings").audit(thresholds: patient).contains { $0.rule == .statusFlagNotRestored })
    }

    @Test("A controller removed by name, and an accessory that says sf=1 again, are not held against anyone")
    func pairingsIsClean() throws {
        let rules = Set(try RecordedCapture("pairings").auditAsTheUserWould().map(\.rule))
        #expect(rules.isDisjoint(with: [.verifyAfterRemoval, .statusFlagNotRestored, .pairingRemovedAfterSetup]))
    }

    @Test("salt-reuse: by design for a provisioned code, a static verifier for a generated one, both named without the option",
          arguments: [(SetupCodeKind?.none, Severity.info, "by design if the setup code is provisioned"),
                      (.provisioned, .info, "by design for the provisioned setup code"),
                      (.generated, .low, "the verifier is static")])
    func provisionedSalt(kind: SetupCodeKind?, severity: Severity, words: String) throws {
        let findings = try RecordedCapture("adk-provisioned-salt").audit(setupCodeKind: kind)
        let finding = try #require(findings.first { $0.rule == .saltReuse })
        #expect(finding.severity == severity)
        #expect(finding.evidence.first?.detail.contains("4005ef64cae2e8d24ec368d599f465ec") == true)
        #expect(finding.evidence.first?.detail.contains(words) == true)
        #expect(findings.allSatisfy { $0.rule == .saltReuse })
    }

    @Test("The truth says the code is provisioned, and the user's audit reports the salt at info")
    func provisionedAsTheUserWould() throws {
        #expect(try RecordedCapture("adk-provisioned-salt").setupCodeKind() == .provisioned)
        #expect(try RecordedCapture("brute-force").setupCodeKind() == nil)
        #expect(try !RecordedCapture("adk-provisioned-salt").auditAsTheUserWould().reachSeverity(.low))
    }
}

/// One accessory across captures, read in one run (config-a before config-b).
@Suite("Across captures")
struct CaptureHistoryRuleTests {
    @Test("Each pair gives its one finding on the later capture's GET /accessories",
          arguments: [("config-b", AuditRule.configurationNumberNotBumped, Severity.low, "differs from the last /accessories of config-a.pcap (packet #37) in accessory 4 Late Switch added"),
                      ("config-d", .configurationNumberChangedWithoutChange, .info, "carries c#=3 where config-c.pcap ended with c#=2"),
                      ("renumbered-b", .iidRenumbered, .medium, "numbers 19 element(s) of the same type at the same place otherwise")])
    func pairs(name: String, rule: AuditRule, severity: Severity, words: String) throws {
        let findings = try RecordedCapture(name).auditAsTheUserWould()
        let finding = try #require(findings.first)
        #expect(findings.map(\.rule) == [rule])
        #expect(finding.severity == severity && finding.party == .accessory)
        #expect(finding.concerns(client: "10.77.0.1:49202"))
        #expect(finding.evidence.count == 1 && finding.evidence.first?.detail.contains(words) == true, "\(finding)")
    }

    @Test("Read alone, the later capture has nothing to compare with; the earlier one is clean")
    func alone() throws {
        // Without its predecessor each later capture's database is the only one: nothing to judge.
        for name in ["config-b", "config-d", "renumbered-b"] {
            #expect(try RecordedCapture(name).audit(withPredecessor: false).isEmpty, "\(name)")
        }
        for name in ["config-a", "config-c", "renumbered-a"] {
            #expect(try RecordedCapture(name).auditAsTheUserWould().isEmpty)
        }
    }

    @Test("Captures of different accessories with one device ID are not compared when their long-term keys differ")
    func differentKeys() throws {
        // renumbered-a then config-b: same device ID, other keys (learned from their pair setups).
        let findings = try RecordedCapture.audit(["renumbered-a", "config-b"])
        #expect(!findings.contains { [.configurationNumberNotBumped, .iidRenumbered, .configurationNumberChangedWithoutChange].contains($0.rule) })
    }
}
