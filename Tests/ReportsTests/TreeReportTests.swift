import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Tree report")
struct TreeReportTests {
    @Test("the accessory database is a box-drawn tree of accessories, services and characteristics")
    func fromCapture() throws {
        let text = try RecordedAnalysis("bridge").render { TreeReport(output: $0, settings: ReportSettings()) }.text
        #expect(text.hasPrefix("hapscope Bridge  1A:2B:3C:4D:5E:6F  10.77.0.2:51826  /accessories at #43"))
        #expect(text.contains("├─ aid 2  Desk Lamp\n│  ├─ iid 1  Accessory Information  3E\n"))
        #expect(text.contains("│     └─ 10  Brightness  int %  0…100 step 1  pr pw ev  40 %\n"))
        #expect(text.contains("└─ 9  Current Temperature  float °C  -273.1…1000 step 0.1  pr ev  21.5 °C"))
        #expect(text.contains("├─ 9   Lock Current State  uint8  values 0,1,2,3  pr ev     1 (SECURED)"))
    }

    @Test("a dump reads the same as the capture it came from, in either JSON form")
    func fromDump() throws {
        let capture = try RecordedAnalysis("bridge")
        let body = try #require(capture.accessoriesBody)
        let fromCapture = capture.render { TreeReport(output: $0, settings: ReportSettings()) }.text
        let tree = fromCapture.split(separator: "\n").dropFirst().joined(separator: "\n")

        let object = try AccessoryDatabase(bytes: body)
        let objectOutput = TextBuffer()
        let objectReport = TreeReport(output: objectOutput, settings: ReportSettings())
        objectReport.addDump(object, source: "accessories.json")
        objectReport.finish(findings: nil)
        #expect(objectOutput.text.hasPrefix("hapscope Bridge  from accessories.json\n"))
        #expect(objectOutput.text.split(separator: "\n").dropFirst().joined(separator: "\n") == tree)

        // The list form that aiohomekit and homekit_python save: the accessories array alone.
        let listText = try #require(String(decoding: body, as: UTF8.self).firstRange(of: "["))
        let list = String(decoding: body, as: UTF8.self)[listText.lowerBound...].dropLast()
        let listDatabase = try AccessoryDatabase(bytes: Array(list.utf8))
        let listOutput = TextBuffer()
        let listReport = TreeReport(output: listOutput, settings: ReportSettings())
        listReport.addDump(listDatabase, source: "list.json")
        listReport.finish(findings: nil)
        #expect(listOutput.text.split(separator: "\n").dropFirst().joined(separator: "\n") == tree)
    }

    @Test("values that break their characteristic's rules and database problems are flagged")
    func badDatabase() throws {
        let text = try RecordedAnalysis("bad-database").render { TreeReport(output: $0, settings: ReportSettings()) }.text
        #expect(text.contains("├─ 10  Brightness    int %  0…100 step 1  pr pw ev  150 % (above the declared maximum 100.0)"))
        #expect(text.contains("! error duplicate-iid at byte"))
        #expect(text.contains("! error missing-accessory-information at byte"))
        #expect(text.contains("; the last of 2"))
    }

    @Test("a capture without a readable database says what is missing")
    func noDatabase() throws {
        let text = try RecordedAnalysis("bridge", withKeys: false).render { TreeReport(output: $0, settings: ReportSettings()) }.text
        #expect(text.contains("no accessory database"))
        #expect(text.contains("--keylog"))
    }

    @Test("JSON gives each database with its source and the full tree")
    func json() throws {
        let output = try RecordedAnalysis("bridge").render { TreeReport(output: $0, settings: ReportSettings(format: .json)) }
        let root = try JSONDocument(bytes: Array(output.text.utf8)).root
        let database = try #require(root["databases"]?.arrayValue?.first)
        #expect(database["packet"]?.numberValue?.int64Value == 43)
        #expect(database["deviceID"]?.stringValue == "1A:2B:3C:4D:5E:6F")
        #expect(database["accessories"]?.arrayValue?.count == 6)
        let lamp = try #require(database["accessories"]?.arrayValue?[1]["services"]?.arrayValue?[1])
        #expect(lamp["typeName"]?.stringValue == "Lightbulb")
        #expect(lamp["characteristics"]?.arrayValue?[1]["maxValue"]?.numberValue?.int64Value == 100)
        #expect(lamp["characteristics"]?.arrayValue?[1]["perms"]?.arrayValue?.map(\.stringValue) == ["pr", "pw", "ev"])
    }
}
