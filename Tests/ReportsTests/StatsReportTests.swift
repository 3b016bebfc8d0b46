import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Stats report")
struct StatsReportTests {
    @Test("each connection shows its TCP counters per direction and the frames of its session")
    func counters() throws {
        let text = try RecordedAnalysis("lossy-link").render { StatsReport(output: $0, settings: ReportSettings()) }.text
        let rows = text.split(separator: "\n")
        let row = try #require(rows.first { $0.hasPrefix("  #2 ") })
        #expect(row.hasSuffix("c→a       73  11673        3             2     0          0      22     1024         0  yes"))
        let next = try #require(rows.firstIndex(of: row).map { rows[$0 + 1] })
        #expect(next.contains("#36–#198, closed (FIN)"))
        #expect(next.hasSuffix("a→c       85  73449       12             0     0          0      74     1024         0  yes"))
        #expect(text.contains("limits  none reached"))
        #expect(text.contains("totals  204 packets, 102464 bytes"))
    }

    @Test("limits that were reached are named with the bound in force")
    func limitsReached() throws {
        var limits = AnalysisLimits()
        limits.tcp.maximumConnections = 1
        let capture = try RecordedAnalysis("multi-connection", configure: { $0.limits = limits })
        let text = capture.render { StatsReport(output: $0, settings: ReportSettings(), limits: limits) }.text
        #expect(text.contains("limits reached"))
        #expect(text.contains("tcp.connections (limit 1): "))
    }

    @Test("JSON carries the connections, the totals and the limits configured and reached")
    func json() throws {
        let output = try RecordedAnalysis("lossy-link").render {
            StatsReport(output: $0, settings: ReportSettings(format: .json), limits: AnalysisLimits())
        }
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        #expect(root["connections"]?.arrayValue?.count == 2)
        #expect(root["connections"]?.arrayValue?.last?["tcp"]?["accessory-to-controller"]?["retransmissions"]?.numberValue?.int64Value == 12)
        #expect(root["limits"]?["configured"]?["tcp.connections"]?.stringValue == "32768")
        #expect(root["limits"]?["reached"]?.objectValue?.isEmpty == true)
    }
}
