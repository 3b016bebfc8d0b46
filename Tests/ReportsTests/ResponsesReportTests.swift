import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

/// `hapscope responses` on the recorded accessory that answers late, never and -70402
/// (`slow-accessory`) and on the one that floods EVENTs (`event-storm`).
@Suite("Responses report")
struct ResponsesReportTests {
    private func render(_ name: String, _ format: ReportFormat = .text) throws -> String {
        try RecordedAnalysis(name).render { ResponsesReport(output: $0, settings: ReportSettings(format: format)) }.text
    }

    @Test("each characteristic's reads show their count, median, 95th percentile and maximum; the 4 s and 9 s reads are slow")
    func perCharacteristic() throws {
        let text = try render("slow-accessory")
        let rows = text.split(separator: "\n")
        let outlet = try #require(rows.first { $0.contains("4.10 Outlet In Use") })
        #expect(outlet.contains("read") && outlet.contains("4.004 s") && outlet.hasSuffix(" 1"))
        let lock = try #require(rows.first { $0.contains("5.9 Lock Current State") })
        #expect(lock.contains("9.003 s") && lock.hasSuffix(" 1"))
        // The 1.5 s read is under the slow mark.
        let temperature = try #require(rows.first { $0.contains("6.11 Current Temperature") })
        #expect(temperature.contains("1.503 s") && temperature.hasSuffix(" 0"))
        #expect(text.contains("slow responses 2"))
        #expect(text.contains("#3 GET /characteristics?id=5.9 (request #73) 200 OK after 9.003 s, slow"))
    }

    @Test("the unanswered read, the FIN that ended its connection and the -70402 are listed by name")
    func unansweredAndStatuses() throws {
        let text = try render("slow-accessory")
        #expect(text.contains("requests never answered 1"))
        #expect(text.contains("GET /characteristics?id=2.10: never answered; connection closed (FIN) 30.007 s later at #102"))
        #expect(text.contains("connections closed with requests outstanding 1"))
        #expect(text.contains("-70402 (unable to perform operation)  1×, first #56"))
        #expect(text.contains("8.9 Contact Sensor State"))
    }

    @Test("JSON gives every distribution in seconds, per controller too, and the never-answered request")
    func json() throws {
        let root = try JSONDocument(bytes: Array(try render("slow-accessory", .json).utf8)).root
        #expect(root["command"]?.stringValue == "responses")
        #expect(root["thresholds"]?["slow"]?.numberValue?.doubleValue == 3)
        let controller = try #require(root["controllers"]?.arrayValue?.first)
        #expect(controller["controller"]?.stringValue == "10.77.0.1" && controller["slow"]?.numberValue?.int64Value == 2)
        let lock = try #require(root["characteristics"]?.arrayValue?.first { $0["characteristic"]?.stringValue == "5.9" })
        #expect(abs((lock["reads"]?["max"]?.numberValue?.doubleValue ?? 0) - 9.0) < 0.05)
        let unanswered = try #require(root["unansweredRequests"]?.arrayValue?.first)
        #expect(unanswered["neverAnswered"]?.boolValue == true && unanswered["closedPacket"]?.numberValue?.int64Value == 102)
        #expect(root["statuses"]?.arrayValue?.first?["status"]?.numberValue?.int64Value == -70402)
    }

    @Test("the storm's light level shows 25 EVENTs and one burst; the three EVENT problems are listed at their packets")
    func events() throws {
        let text = try render("event-storm")
        let light = try #require(text.split(separator: "\n").first { $0.contains("8.9 Current Ambient Light Level") && $0.contains("+") })
        #expect(light.contains(" 25 ") && light.hasSuffix(" 1"))
        #expect(text.contains("event problems 3"))
        #expect(text.contains("#57 "))
        #expect(text.contains("into GET /characteristics?id=6.11 (request #106), before its response"))
        #expect(text.contains("EVENT for 9.9 after its \"ev\": false was answered in #114"))
    }

    @Test("a clean capture has no slow response, nothing unanswered and no EVENT problem")
    func cleanCapture() throws {
        let text = try render("long-session")
        #expect(text.contains("slow responses 0"))
        #expect(text.contains("requests never answered 0"))
        #expect(text.contains("event problems 0"))
    }
}
