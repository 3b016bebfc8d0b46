import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Pairing report")
struct PairingReportTests {
    static func text(_ name: String, withKeys: Bool = true) throws -> String {
        try RecordedAnalysis(name, withKeys: withKeys).render { PairingReport(output: $0, settings: ReportSettings()) }.text
    }

    @Test("a pair-setup is a ladder from M1 to M6 with every item, decrypted sub-TLVs, timings and checks")
    func pairSetupLadder() throws {
        let text = try Self.text("bridge")
        let ladder = try #require(text.components(separatedBy: "\npair-setup on #1").dropFirst().first)
        var position = ladder.startIndex
        for step in ["M1 ──", "◀──", "M2", "M3 ──", "M4", "M5 ──", "M6"] {
            let found = try #require(ladder.range(of: step, range: position ..< ladder.endIndex), "\(step) in order")
            position = found.upperBound
        }
        #expect(ladder.contains("    3  salt        16  16 bytes e894…75a7"))
        #expect(ladder.contains("encryptedData, decrypted:"))
        #expect(ladder.contains("identifier  \"1A:2B:3C:4D:5E:6F\""))
        #expect(ladder.contains("accessory took 66.9 ms"))
        #expect(ladder.contains("timings: M2 66.9 ms, M4 89.2 ms, M6 7.1 ms"))
        #expect(ladder.contains("✓ srp-controller-proof"))
        #expect(ladder.contains("✓ m6-signature"))
    }

    @Test("a refusal ends the ladder with its error")
    func refusal() throws {
        let text = try Self.text("wrong-code")
        #expect(text.contains("pair-setup on #1 10.77.0.1:49201 → 10.77.0.2:51826  Method PairSetup (0)  failed at M4: Authentication (2)"))
        #expect(text.contains("    3  error    1  Authentication (2)"))
    }

    @Test("without a key log the checks say what they would need")
    func withoutKeys() throws {
        let text = try Self.text("bridge", withKeys: false)
        #expect(text.contains("– srp-controller-proof: not checked (no PAIR_SETUP_SESSION_KEY for this A)"))
        #expect(!text.contains("encryptedData, decrypted"))
    }

    @Test("/pairings exchanges say what was added, removed or listed")
    func pairings() throws {
        let text = try Self.text("pairings")
        #expect(text.contains("List Pairings: 1 pairing"))
        #expect(text.contains("Add Pairing"))
        #expect(text.contains("Remove Pairing"))
    }

    @Test("exchanges on concurrent connections are drawn apart, one ladder each")
    func concurrentConnections() throws {
        let capture = try RecordedAnalysis("multi-connection")
        let exchanges = capture.events.filter { if case .pairingExchange = $0.kind { true } else { false } }.count
        let text = capture.render { PairingReport(output: $0, settings: ReportSettings()) }.text
        #expect(text.components(separatedBy: "\npair-").count - 1 == exchanges)
        for ladder in text.components(separatedBy: "\npair-").dropFirst() {
            let connection = try #require(ladder.split(separator: " ").dropFirst(2).first)
            #expect(!ladder.contains("conn #") || ladder.contains(connection))
        }
    }

    @Test("JSON carries the pairing messages and exchanges, nothing else")
    func json() throws {
        let output = try RecordedAnalysis("bridge").render { PairingReport(output: $0, settings: ReportSettings(format: .ndjson)) }
        let types = try output.text.split(separator: "\n").map { try JSONDocument(bytes: Array($0.utf8)).root["type"]?.stringValue }
        #expect(Set(types.compactMap { $0 }) == ["header", "input-opened", "pairing-message", "pairing-exchange", "input-ended"])
        #expect(types.filter { $0 == "pairing-message" }.count == 10)
    }
}
