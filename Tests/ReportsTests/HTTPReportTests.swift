import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("HTTP report")
struct HTTPReportTests {
    static func text(_ name: String, withKeys: Bool = true, verbose: Bool = false) throws -> String {
        try RecordedAnalysis(name, withKeys: withKeys).render {
            HTTPReport(output: $0, settings: ReportSettings(), verbose: verbose)
        }.text
    }

    @Test("each message is one line: connection, direction, start line, body, decryption and response time")
    func lines() throws {
        let text = try Self.text("bridge")
        #expect(text.contains("#39  #2 →        GET /accessories HTTP/1.1  [decrypted]"))
        #expect(text.contains("#43  #2 ←        HTTP/1.1 200 OK  4588 bytes application/hap+json  [decrypted]  answers #39 after 7.9 ms"))
        #expect(text.contains("session #2  encrypted from here (pair-verify M4); decrypting both directions with PAIR_VERIFY_SHARED_SECRET"))
        #expect(text.hasSuffix("85 packets; 37 HTTP messages\n"))
    }

    @Test("without the key log the session's messages are missing, and the report says why")
    func withoutKeys() throws {
        let text = try Self.text("bridge", withKeys: false)
        #expect(!text.contains("[decrypted]"))
        #expect(text.contains("cannot decrypt: no key-log entry for this pair-verify (controller ephemeral key de0c69641b8a2f2c…)"))
        #expect(text.hasSuffix("85 packets; 10 HTTP messages\n"), "the pair-setup and the pair-verify in plaintext")
    }

    @Test("verbose shows headers, pairing bodies decoded as TLV8, and JSON bodies as text")
    func verbose() throws {
        let text = try Self.text("bridge", verbose: true)
        #expect(text.contains("Content-Type: application/pairing+tlv8"))
        #expect(text.contains("    3  salt        16  16 bytes e894…75a7"))
        #expect(text.contains("{\"characteristics\":"))
    }

    @Test("NDJSON has one http-message line per message")
    func ndjson() throws {
        let output = try RecordedAnalysis("bridge").render { HTTPReport(output: $0, settings: ReportSettings(format: .ndjson)) }
        let lines = try output.text.split(separator: "\n").map { try JSONDocument(bytes: Array($0.utf8)).root }
        #expect(lines.filter { $0["type"]?.stringValue == "http-message" }.count == 37)
        #expect(lines.first?["type"]?.stringValue == "header")
        #expect(lines.last?["type"]?.stringValue == "input-ended")
    }

    @Test("the audit's findings close the report when it ran, most severe first")
    func findings() throws {
        let capture = try RecordedAnalysis("bridge")
        let text = capture.render({ HTTPReport(output: $0, settings: ReportSettings()) }, findings: SummaryReportTests.findings.reversed()).text
        let lines = text.split(separator: "\n")
        #expect(lines.suffix(3).first?.hasPrefix("HIGH    pairing/srp-malformed") == true)
        #expect(lines.suffix(2).first?.hasPrefix("MEDIUM  session/nonce-skip") == true)
        let ndjson = capture.render({ HTTPReport(output: $0, settings: ReportSettings(format: .ndjson)) }, findings: SummaryReportTests.findings).text
        #expect(ndjson.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"finding\",\"rule\":") }.count == 2)
        let withoutAudit = capture.render { HTTPReport(output: $0, settings: ReportSettings()) }.text
        #expect(!withoutAudit.contains("HIGH"))
    }
}
