import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Timeline report")
struct TimelineReportTests {
    static func render(_ name: String, _ selectors: [String] = [], format: ReportFormat = .text) throws -> TextBuffer {
        try RecordedAnalysis(name).render {
            TimelineReport(output: $0, settings: ReportSettings(format: format), selectors: selectors.map(CharacteristicSelector.init))
        }
    }

    @Test("reads, writes, events and subscriptions appear in capture order with values and units")
    func entries() throws {
        let text = try Self.render("bridge").text
        #expect(text.contains("#47  #2    read        3.9     Current Temperature         21.5 °C"))
        #expect(text.contains("#57  #2    write       2.10    Brightness                  80 %  (request #56)"))
        #expect(text.contains("#64  #2    event       5.9     Lock Current State          0 (UNSECURED)"))
        #expect(text.contains("#51  #2    subscribe   2.9     On                          events on"))
        #expect(text.hasSuffix("85 packets; 24 characteristic entries\n"))
    }

    @Test("an address follows one characteristic")
    func byAddress() throws {
        let text = try Self.render("bridge", ["3.9"]).text
        let entries = text.split(separator: "\n").filter { $0.contains(" #2 ") }
        #expect(entries.count == 7)
        #expect(entries.allSatisfy { $0.contains("Current Temperature") })
    }

    @Test("a name follows every characteristic whose name contains it, whatever the case")
    func byName() throws {
        let text = try Self.render("bridge", ["TEMPERATURE"]).text
        #expect(text.contains("Target Temperature"))
        #expect(text.contains("Current Temperature"))
        #expect(!text.contains(" On "))
        #expect(text.contains("for \"temperature\""))
    }

    @Test("selectors read addresses and names")
    func selectors() {
        #expect(CharacteristicSelector("1.10").match == .id(CharacteristicID(aid: 1, iid: 10)))
        #expect(CharacteristicSelector("1.x").match == .name("1.x"))
        #expect(CharacteristicSelector("On").match == .name("on"))
    }

    @Test("entries are streamed: each is a record of its own, written as it arrives")
    func streamed() throws {
        let output = try Self.render("bridge")
        #expect(output.recordCount >= 24)
    }

    @Test("JSON holds only the selected characteristic events")
    func json() throws {
        let output = try Self.render("bridge", ["2.10"], format: .json)
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        let events = try #require(root["events"]?.arrayValue)
        #expect(events.map { $0["kind"]?.stringValue } == ["read", "write"])
        #expect(events.last?["value"]?.numberValue?.int64Value == 80)
        #expect(events.last?["unit"]?.stringValue == "percentage")
        #expect(events.last?["requestPacket"]?.numberValue?.int64Value == 56)
    }
}
