@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The pairing rules on the captures that break them, with the evidence a reader needs.
@Suite("Pairing rules")
struct PairingRuleTests {
    private func findings(_ name: String, of rule: AuditRule) throws -> [Finding] {
        try RecordedCapture(name).auditAsTheUserWould().filter { $0.rule == rule }
    }

    @Test("unverified-request lists each protected request served on the connection that skipped pair-verify")
    func unverifiedRequests() throws {
        let findings = try findings("unverified-access", of: .unverifiedRequest)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.severity == .high)
        #expect(finding.connection?.controller.description == "10.77.0.1:49202")
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 3)
        #expect(details[0].contains("GET /accessories") && details[0].contains("200 OK") && details[0].contains("body 4588 bytes"))
        #expect(details[1].contains("GET /characteristics?id=2.9,3.9"))
        #expect(details[2].contains("POST /pairings") && details[2].contains("application/pairing+tlv8"))
    }

    @Test("setup-while-paired names the pair setup on the paired accessory and not the first one")
    func setupWhilePaired() throws {
        let finding = try #require(try findings("paired-setup", of: .setupWhilePaired).first)
        #expect(finding.connection?.controller.description == "10.77.0.1:49203")
        #expect(!finding.concerns(client: "10.77.0.1:49201"))
        #expect(finding.evidence.first?.detail.contains("stored 1 pairing(s)") == true)
    }

    @Test("setup-no-backoff counts the six wrong codes of the burst on the accessory")
    func bruteForceBurst() throws {
        let finding = try #require(try findings("brute-force", of: .setupNoBackoff).first)
        #expect(finding.accessory == "1A:2B:3C:4D:5E:6F")
        #expect(finding.evidence.first?.detail.hasPrefix("6 pair setups failed with a wrong setup code") == true)
        let failures = try #require(finding.evidence.first { $0.detail.contains("M4 Error=Authentication") })
        #expect(failures.occurrences == 6)
    }

    @Test("setup-no-backoff stays silent when the burst is smaller than the threshold or slower than the window")
    func bruteForceThresholds() throws {
        let capture = RecordedCapture("brute-force")
        var moreAttempts = AuditThresholds()
        moreAttempts.failedSetupAttempts = 7
        #expect(!(try capture.audit(thresholds: moreAttempts)).contains { $0.rule == .setupNoBackoff })
        var shortWindow = AuditThresholds()
        shortWindow.failedSetupWindow = 0.5
        #expect(!(try capture.audit(thresholds: shortWindow)).contains { $0.rule == .setupNoBackoff })
    }

    @Test("srp-malformed is high when the accessory accepted A = 0 and A = N, and names the 15-byte salt")
    func forgedSRPKeys() throws {
        let finding = try #require(try findings("bad-srp", of: .srpMalformed).first)
        #expect(finding.severity == .high)
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 3)
        #expect(details[0].contains("15 bytes") && details[0].contains("2064336bdf80a9f8bc7df0d1577c6a"))
        #expect(details[1].contains("A ≡ 0 mod N") && details[1].contains("0000000000000000") && details[1].contains("ACCEPTED"))
        #expect(details[2].contains("A ≡ 0 mod N") && details[2].contains("ffffffffffffffff") && details[2].contains("ACCEPTED"))
    }

    @Test("srp-proof-mismatch names the M4 of the fourth attempt, whose controller proof matched")
    func wrongAccessoryProof() throws {
        let finding = try #require(try findings("bad-srp", of: .srpProofMismatch).first)
        #expect(finding.evidence.count == 1)
        #expect(finding.evidence.first?.packet?.number == 42)
    }

    @Test("srp-proof-mismatch needs the session key from the key log")
    func proofCheckNeedsTheKeyLog() throws {
        #expect(!(try RecordedCapture("bad-srp").audit(keyLog: false)).contains { $0.rule == .srpProofMismatch })
    }

    @Test("salt-reuse lists M2 #2 to #7 against the salt of M2 #1")
    func reusedSalt() throws {
        let finding = try #require(try findings("brute-force", of: .saltReuse).first)
        #expect(finding.severity == .info)
        #expect(finding.evidence.count == 6)
        for (index, evidence) in finding.evidence.enumerated() {
            #expect(evidence.detail.hasPrefix("pair-setup M2 #\(index + 2) carries the SRP salt ae8d0635198a1e6d71b8ceedfc23dbd6"))
            #expect(evidence.detail.contains("M2 #1"))
        }
    }

    @Test("forbidden-setup-code is reported for a forbidden code, with the pair setup that used it, and not for others")
    func forbiddenSetupCode() throws {
        let bruteForce = try findings("brute-force", of: .forbiddenSetupCode)
        let finding = try #require(bruteForce.first)
        #expect(finding.connection == nil && finding.accessory == nil)
        #expect(finding.evidence.first?.detail.contains("123-45-678") == true)
        #expect(finding.evidence.first?.packet?.number == 73)

        let bridge = RecordedCapture("bridge")
        #expect(try bridge.audit(setupCode: "000-00-000").contains { $0.rule == .forbiddenSetupCode })
        #expect(try bridge.audit(setupCode: "876-54-321").contains { $0.rule == .forbiddenSetupCode })
        #expect(!(try bridge.audit(setupCode: "031-45-154")).contains { $0.rule == .forbiddenSetupCode })
        #expect(!(try bridge.audit()).contains { $0.rule == .forbiddenSetupCode })
    }

    @Test("ephemeral-key-reuse names the accessory key of pair verify on 49203 and its first use on 49202")
    func reusedEphemeralKey() throws {
        let finding = try #require(try findings("verify-reuse", of: .ephemeralKeyReuse).first)
        #expect(finding.severity == .medium)
        let evidence = try #require(finding.evidence.first)
        #expect(finding.evidence.count == 1)
        #expect(evidence.connection?.controller.description == "10.77.0.1:49203")
        #expect(evidence.detail.contains("adda63db56eef3a5d3079712538230fb2304b79d8acb6040d6b5fc8af7619109"))
        #expect(evidence.detail.contains("on #2"))
    }

    @Test("bad-signature names pair-verify M2 on 49204, and needs the accessory's long-term key to judge")
    func badSignature() throws {
        let finding = try #require(try findings("verify-reuse", of: .badSignature).first)
        #expect(finding.connection?.controller.description == "10.77.0.1:49204")
        #expect(finding.evidence.first?.detail.hasPrefix("pair-verify M2:") == true)
        #expect(!(try RecordedCapture("verify-reuse").audit(keyLog: false)).contains { $0.rule == .badSignature })
    }

    @Test("pairing-without-admin lists the Add and the Remove Pairing of the regular controller")
    func pairingWithoutAdmin() throws {
        let finding = try #require(try findings("pairings-admin", of: .pairingWithoutAdmin).first)
        #expect(finding.connection?.controller.description == "10.77.0.1:49203")
        let details = finding.evidence.map(\.detail)
        #expect(details.count == 2)
        #expect(details[0].hasPrefix("Add Pairing of \"eb15be85-8d22-4dfe-9c99-5c1cfd02afb7\" with permissions Admin (1)"))
        #expect(details[1].hasPrefix("Remove Pairing of \"eb15be85-8d22-4dfe-9c99-5c1cfd02afb7\""))
        #expect(details.allSatisfy { $0.contains("91e58aa2-3b50-404e-84a5-45222c0c7b25") && $0.contains("Regular user (0)") })
    }
}
