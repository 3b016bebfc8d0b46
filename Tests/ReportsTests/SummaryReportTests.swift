import HAPCore
import HAPEvents
import HAPJSON
import Packets
import Reports
import Testing
import TestSupport

@Suite("Summary report")
struct SummaryReportTests {
    static func text(_ capture: RecordedAnalysis, findings: [Finding]? = nil, limit: Int = 12) -> String {
        capture.render({ output in
            let report = SummaryReport(output: output, settings: ReportSettings())
            report.sectionLimit = limit
            return report
        }, findings: findings).text
    }

    static let findings: [Finding] = [
        .example("pairing/srp-malformed", .high, title: "A is 0 mod N", explanation: "HAP: SRP", evidence: [(19, nil, nil, "A = 0")]),
        .example("session/nonce-skip", .medium, title: "counter skipped", explanation: "HAP: frames"),
    ]

    @Test("it names each accessory with its model, device ID, category, address and pairing state")
    func accessory() throws {
        let text = Self.text(try RecordedAnalysis("bridge"))
        let line = try #require(text.split(separator: "\n").first { $0.contains("1A:2B:3C:4D:5E:6F") })
        for part in ["hapscope Bridge", "model hapscope Bridge", "Bridge (ci 2)", "10.77.0.2:51826", "c#=2", "paired (sf=0)"] {
            #expect(line.contains(part), "\(part)")
        }
    }

    @Test("it counts connections, pairing outcomes, sessions and activity")
    func counts() throws {
        let text = Self.text(try RecordedAnalysis("wrong-code"))
        #expect(text.contains("pair-setup 1 succeeded, 1 failed"))
        #expect(text.contains("failed at M4: Authentication (2)"))
        #expect(text.contains("sessions    1 encrypted, 1 decrypted"))
        #expect(text.contains("decrypted both directions with PAIR_VERIFY_SHARED_SECRET"))
        #expect(text.contains("problems    none"))
    }

    @Test("a session it cannot decrypt says why")
    func undecryptedSession() throws {
        let text = Self.text(try RecordedAnalysis("bridge", withKeys: false))
        #expect(text.contains("not decrypted: no key-log entry for this pair-verify"))
        #expect(text.contains("sessions    1 encrypted, 0 decrypted"))
    }

    @Test("values read from an accessory carry the unit its database declares")
    func units() throws {
        let text = Self.text(try RecordedAnalysis("bridge"))
        #expect(text.contains("Current Temperature  2 reads, 3 events  last 23.0 °C"))
    }

    @Test("the findings line appears only when the audit's findings are given")
    func findingsLine() throws {
        let capture = try RecordedAnalysis("bridge")
        #expect(!Self.text(capture).contains("findings"))
        let text = Self.text(capture, findings: Self.findings)
        #expect(text.contains("findings    2 (1 high, 1 medium)"))
        #expect(text.contains("HIGH    pairing/srp-malformed  A is 0 mod N [accessory] (#19)"))
        #expect(Self.text(capture, findings: []).contains("findings    none"))
    }

    @Test("long sections are cut, naming the command that lists them all")
    func cutSections() throws {
        let text = Self.text(try RecordedAnalysis("bridge"), limit: 3)
        #expect(text.contains("… 5 more (hapscope timeline lists them all)"))
    }

    @Test("the JSON document holds accessories, connections, pairing, counts and findings")
    func json() throws {
        let capture = try RecordedAnalysis("bridge")
        let output = capture.render({ SummaryReport(output: $0, settings: ReportSettings(format: .json)) }, findings: Self.findings)
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        #expect(root["schema"]?.stringValue == "hapscope/1")
        #expect(root["accessories"]?.arrayValue?.first?["deviceID"]?.stringValue == "1A:2B:3C:4D:5E:6F")
        #expect(root["connections"]?.arrayValue?.count == 2)
        #expect(root["pairing"]?["counts"]?["pair-setup"]?["succeeded"]?.numberValue?.int64Value == 1)
        #expect(root["counts"]?["characteristicActivity"]?["event"]?.numberValue?.int64Value == 4)
        #expect(root["totals"]?["packets"]?.numberValue?.int64Value == 85)
        #expect(root["findings"]?.arrayValue?.map { $0["rule"]?.stringValue } == ["pairing/srp-malformed", "session/nonce-skip"])
    }

    @Test("NDJSON has one record per line, ending with the totals")
    func ndjson() throws {
        let capture = try RecordedAnalysis("bridge")
        let lines = try capture.render({ SummaryReport(output: $0, settings: ReportSettings(format: .ndjson)) }).text
            .split(separator: "\n").map { try JSONDocument(bytes: Array($0.utf8)).root }
        #expect(try lines.map { try #require($0["type"]?.stringValue) }
            == ["header", "input-opened", "accessory", "connection", "connection", "pairing-exchange", "pairing-exchange", "summary"])
    }

    @Test("color marks outcomes on a terminal, and plain text has none")
    func color() throws {
        let capture = try RecordedAnalysis("wrong-code")
        let colored = capture.render { SummaryReport(output: $0, settings: ReportSettings(style: .colored)) }.text
        #expect(colored.contains("\u{1B}[1;31m1 failed\u{1B}[0m"))
        #expect(!Self.text(capture).contains("\u{1B}"))
    }
}
