import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Discovery report")
struct DiscoveryReportTests {
    static func text(_ name: String, verbose: Bool = false) throws -> String {
        try RecordedAnalysis(name).render { DiscoveryReport(output: $0, settings: ReportSettings(), verbose: verbose) }.text
    }

    @Test("the first advertisement of an instance explains every TXT key")
    func firstSighting() throws {
        let text = try Self.text("bridge")
        #expect(text.contains("#2  announce hapscope Bridge 4D5E6F  _hap._tcp  hapscope-Bridge-4D5E6F.local:51826 (10.77.0.2)"))
        #expect(text.contains("ci=2                  accessory category 2: Bridge"))
        #expect(text.contains("sf=1                  status flags 0x1: not paired, accepting pair-setup"))
    }

    @Test("later advertisements show only what changed, with the old value")
    func changes() throws {
        let text = try Self.text("bridge")
        #expect(text.contains("sf=0  status flags 0x0: paired, no problem reported (was 1)"))
        #expect(text.components(separatedBy: "TXT unchanged").count - 1 == 5)
        #expect(text.components(separatedBy: "md=hapscope Bridge").count - 1 == 1)
    }

    @Test("a change to c#, s# or sf is highlighted apart from other changes")
    func highlighting() throws {
        let output = try RecordedAnalysis("bridge").render { DiscoveryReport(output: $0, settings: ReportSettings(style: .colored)) }
        #expect(output.text.contains("\u{1B}[1;33msf=0  status flags 0x0: paired, no problem reported (was 1)\u{1B}[0m"))
    }

    @Test("verbose explains every key of every advertisement")
    func verbose() throws {
        let text = try Self.text("bridge", verbose: true)
        #expect(!text.contains("TXT unchanged"))
        #expect(text.components(separatedBy: "md=hapscope Bridge").count - 1 == 7)
    }

    @Test("browsing queries are shown with who asked")
    func queries() throws {
        #expect(try Self.text("bridge").contains("#8  query    10.77.0.1 asks for _hap._tcp.local PTR QU"))
    }

    @Test("malformed TXT keys and a missing address record are named with their offsets")
    func diagnostics() throws {
        let text = try Self.text("bad-discovery")
        #expect(text.contains("! byte 64: hapscope Bridge 4D5E6F._hap._tcp.local: SRV target hapscope-Bridge-4D5E6F.local has no A or AAAA record"))
        #expect(text.contains("! byte 138: pv=1 is not of the form major.minor"))
        #expect(text.contains("ci=99               accessory category 99: not defined by HAP (was 2)"))
    }

    @Test("JSON carries each advertisement with its explained TXT keys and changes")
    func json() throws {
        let output = try RecordedAnalysis("bridge").render { DiscoveryReport(output: $0, settings: ReportSettings(format: .json)) }
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        let events = try #require(root["events"]?.arrayValue)
        #expect(events.count == 9)
        let changed = try #require(events.first { $0["changes"]?.arrayValue?.isEmpty == false })
        #expect(changed["changes"]?.arrayValue?.first?["key"]?.stringValue == "sf")
        #expect(changed["changes"]?.arrayValue?.first?["significant"]?.boolValue == true)
        #expect(changed["hap"]?["paired"]?.boolValue == true)
        #expect(events.first?["txt"]?.arrayValue?.count == 9)
        #expect(root["inputs"]?.arrayValue?.first?["name"]?.stringValue == "bridge.pcap")
    }
}
