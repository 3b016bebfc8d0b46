@testable import Audit
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The audit over the corpora of HAP over Bluetooth LE (`captures/ble/`) and over Thread
/// (`captures/coap/`), judged against their truth files as the IP corpus is.
@Suite("The audit of the recorded BLE and CoAP corpora")
struct RecordedTransportCorpusTests {
    static let bleMisbehaving = RecordedCapture.ble.filter { (try? RecordedCapture($0).misbehaviours().isEmpty) == false }
    static let bleClean = RecordedCapture.ble.filter { !bleMisbehaving.contains($0) }

    /// The rules the BLE transport's facts feed, and those only it can raise.
    static let bleRules: [AuditRule] = [
        .transactionIDMismatch, .nonceSkip, .plaintextAfterEncryption, .secureAccessWithoutSession, .globalStateNumberNotBumped,
        .configurationNumberUnchanged, .broadcastKeyExpired,
    ]
    static let bleOnlyRules: [AuditRule] = [
        .transactionIDMismatch, .secureAccessWithoutSession, .globalStateNumberNotBumped, .broadcastKeyExpired,
    ]

    @Test("The BLE corpus has its seven misbehaving scenarios, each declaring one catalogued rule")
    func corpus() throws {
        #expect(Self.bleMisbehaving.count == 7 && Self.bleClean.count == 5)
        let declared = try Self.bleMisbehaving.flatMap { try RecordedCapture($0).misbehaviours().map(\.rule) }
        #expect(Set(declared) == Set(Self.bleRules.map(\.slug)))
    }

    @Test("Every misbehaviour a BLE truth file declares is found, on the connection it names, and nothing else",
          arguments: bleMisbehaving)
    func misbehaviourFound(_ name: String) throws {
        let capture = RecordedCapture(name)
        let declared = try capture.findingsOfDeclaredMisbehaviours()
        for (misbehaviour, matching) in declared {
            #expect(matching.count == 1, "\(name): \(misbehaviour)")
            let number = try #require(misbehaviour.connectionNumber)
            #expect(matching.allSatisfy { $0.connection?.id == number }, "\(name): \(misbehaviour) not on connection \(number)")
            #expect(matching.allSatisfy { $0.evidence.count == 1 })
        }
        #expect(Set(try capture.auditAsTheUserWould().map(\.rule.slug)) == Set(declared.map(\.misbehaviour.rule)))
    }

    /// Whether the truth holds a write the accessory answered with a non-zero PDU status
    /// (HAP-Characteristic-Write 2, Timed-Write 4, Execute-Write 5).
    static func hasRejectedWrite(_ name: String) throws -> Bool {
        try (RecordedCapture(name).truth()["pdus"]?.arrayValue ?? []).contains { pdu in
            pdu["requestTid"] != nil && (pdu["status"]?.numberValue?.int64Value ?? 0) != 0
                && [2, 4, 5].contains(pdu["opcode"]?.numberValue?.int64Value ?? 0)
        }
    }

    @Test("A clean BLE capture has no finding but the writes its truth says were rejected, with or without its key log",
          arguments: bleClean)
    func cleanBLE(_ name: String) throws {
        let capture = RecordedCapture(name)
        let withKeys = try capture.auditAsTheUserWould()
        let expected: Set<String> = try Self.hasRejectedWrite(name) ? [AuditRule.writeRejected.slug] : []
        #expect(Set(withKeys.map(\.rule.slug)) == expected, "\(withKeys.map(\.description).joined(separator: "\n"))")
        let withoutKeys = try capture.audit(keyLog: false)
        #expect(withoutKeys.isEmpty, "\(withoutKeys.map(\.description).joined(separator: "\n"))")
    }

    @Test("The rules only BLE facts raise are silent on every IP and CoAP capture",
          arguments: RecordedCapture.all + RecordedCapture.coap)
    func bleOnlyRulesSilentElsewhere(_ name: String) throws {
        let findings = try RecordedCapture(name).auditAsTheUserWould().filter { Self.bleOnlyRules.contains($0.rule) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("The BLE rules are silent on every clean CoAP capture", arguments: RecordedCapture.coap)
    func bleRulesSilentOnCleanCoAP(_ name: String) throws {
        let capture = RecordedCapture(name)
        guard try capture.misbehaviours().isEmpty else { return }
        let findings = try capture.auditAsTheUserWould().filter { Self.bleRules.contains($0.rule) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }
}
