import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Event log report")
struct EventLogReportTests {
    @Test("text is one line per event, each written as a record as it arrives")
    func textLines() throws {
        let capture = try RecordedAnalysis("bridge")
        let output = capture.render { EventLogReport(output: $0, settings: ReportSettings()) }
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == capture.events.count + 1, "one line per event and the time base")
        #expect(output.recordCount >= capture.events.count)
        #expect(lines.contains { $0.hasSuffix("#38  session #2  encrypted from here (pair-verify M4); decrypting both directions with PAIR_VERIFY_SHARED_SECRET") })
    }

    @Test("NDJSON is a header and then every event, one per line")
    func ndjson() throws {
        let capture = try RecordedAnalysis("bridge")
        let output = capture.render { EventLogReport(output: $0, settings: ReportSettings(format: .ndjson)) }
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == capture.events.count + 1)
        #expect(lines.first == "{\"type\":\"header\",\"schema\":\"hapscope/1\",\"command\":\"events\"}")
        #expect(output.recordCount == lines.count + 1, "every line is a record, and the end is one")
    }

    @Test("the JSON document puts selected events in events and the context beside them")
    func json() throws {
        let capture = try RecordedAnalysis("bridge")
        let output = capture.render({ EventLogReport(output: $0, settings: ReportSettings(format: .json)) }, findings: [])
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        #expect(root["events"]?.arrayValue?.count == capture.events.count - 2, "input-opened and input-ended are context")
        #expect(root["inputs"]?.arrayValue?.count == 1)
        #expect(root["totals"]?["packets"]?.numberValue?.int64Value == 85)
        #expect(root["firstPacketTime"]?.stringValue == "2026-11-30T04:03:03.525802Z")
        #expect(root["findings"]?.arrayValue?.isEmpty == true)
    }
}
