import Foundation
import HAPJSON
import Testing
import TestSupport

/// `audit` on dumps and across captures, `audit --format junit`, and `diff`, from the command line.
@Suite(.serialized) struct AuditDumpDiffCommandTests {
    private static let realDatabases = "Tests/HAPJSONTests/Fixtures/real-databases/"

    @Test func auditReadsADumpAsTreeDoesAndNamesTheFileAndByte() throws {
        let ryse = try HapscopeBinary.run(["audit", Self.realDatabases + "ryse_smart_bridge.json"])
        #expect(ryse.status == 1, "\(ryse.standardError)")
        #expect(ryse.standardOutput.contains("MEDIUM  database/missing-accessory-information  Accessory Information service missing or incomplete [accessory]"))
        #expect(ryse.standardOutput.contains("ryse_smart_bridge.json, byte 8836 (/2/services/0/characteristics/4): Serial Number \"\" is 0 bytes"))
        let clean = try HapscopeBinary.run(["audit", Self.realDatabases + "velux_window.json"])
        #expect(clean.status == 0 && clean.standardOutput.contains("findings: none"))
        // A dump on standard input, and a dump that is not JSON: a finding, not an input error.
        let scratch = try ScratchDirectory()
        let broken = try scratch.write("[{\"aid\":1,\"services\":[", to: "broken.json")
        let truncated = try HapscopeBinary.run(["audit", broken])
        #expect(truncated.status == 1)
        #expect(truncated.standardOutput.contains("database/invalid-json") && truncated.standardOutput.contains("truncated at byte"))
        let piped = try HapscopeBinary.run(["audit", "--dump", "-"], input: try Data(contentsOf: RecordedCapture.packageDirectory
            .appendingPathComponent(Self.realDatabases + "ryse_smart_bridge.json")))
        #expect(piped.status == 1 && piped.standardOutput.contains("standard input, byte 8836"))
    }

    @Test func auditJSONOfADumpCarriesThePartyAndNoPacket() throws {
        let result = try HapscopeBinary.run(["audit", "--format", "json", Self.realDatabases + "simpleconnect_fan.json"])
        let root = try JSONDocument(bytes: Array(result.outputBytes)).root
        #expect(root["inputs"]?.arrayValue?.compactMap(\.stringValue) == ["simpleconnect_fan.json"])
        let findings = try #require(root["findings"]?.arrayValue)
        #expect(findings.count == 3)
        #expect(findings.allSatisfy { $0["party"]?.stringValue == "accessory" })
        #expect(findings.allSatisfy { $0["evidence"]?.arrayValue?.allSatisfy { $0["packet"] == nil } == true })
    }

    @Test func auditComparesCapturesOfOneAccessoryGivenInOrder() throws {
        let result = try HapscopeBinary.run([
            "audit", "captures/config-a.pcap", "captures/config-b.pcap", "--keylog", "captures/config-a.keylog",
            "--keylog", "captures/config-b.keylog",
        ])
        #expect(result.status == 0, "a low finding does not reach --fail-on medium")
        #expect(result.standardOutput.contains("findings: 1 (1 low)"))
        #expect(result.standardOutput.contains("LOW     discovery/config-number-not-bumped"))
        #expect(try HapscopeBinary.run(["audit", "--fail-on", "low", "captures/config-a.pcap", "captures/config-b.pcap",
                                        "--keylog", "captures/config-a.keylog", "--keylog", "captures/config-b.keylog"]).status == 1)
    }

    @Test func auditSaysWhetherTheSetupCodeIsProvisioned() throws {
        let capture = ["captures/adk-provisioned-salt.pcap", "--keylog", "captures/adk-provisioned-salt.keylog", "--fail-on", "low"]
        let provisioned = try HapscopeBinary.run(["audit", "--setup-code-kind", "provisioned"] + capture)
        #expect(provisioned.status == 0 && provisioned.standardOutput.contains("by design for the provisioned setup code"))
        let generated = try HapscopeBinary.run(["audit", "--setup-code-kind", "generated"] + capture)
        #expect(generated.status == 1 && generated.standardOutput.contains("LOW     pairing/salt-reuse"))
        #expect(try HapscopeBinary.run(["audit", "--setup-code-kind", "printed"] + capture).status == 2)
    }

    @Test func auditJUnitHasOneTestCasePerInputAndRule() throws {
        let result = try HapscopeBinary.run([
            "audit", "--format", "junit", "captures/bad-json.pcap", "--keylog", "captures/bad-json.keylog",
            Self.realDatabases + "velux_window.json",
        ])
        #expect(result.status == 1)
        let xml = result.standardOutput
        let cases = xml.components(separatedBy: "<testcase ").count - 1
        #expect(cases == 2 * 63)
        #expect(xml.contains("tests=\"126\" failures=\"1\" errors=\"0\""))
        #expect(xml.contains("name=\"database/invalid-json\" classname=\"hapscope.audit.bad-json.pcap\""))
        #expect(xml.contains("classname=\"hapscope.audit.velux_window.json\""))
        #expect(xml.contains("MEDIUM database/invalid-json by the accessory"))
        // Below --fail-on nothing fails, as the exit status says.
        let lenient = try HapscopeBinary.run(["audit", "--format", "junit", "--fail-on", "high", "captures/bad-json.pcap",
                                              "--keylog", "captures/bad-json.keylog"])
        #expect(lenient.status == 0 && lenient.standardOutput.contains("failures=\"0\""))
    }

    @Test func diffListsWhatChangedAndExitsOneWhenSomethingDid() throws {
        let removed = try HapscopeBinary.run([
            "diff", Self.realDatabases + "home_assistant_bridge_fan.json", Self.realDatabases + "home_assistant_bridge_fan_one_removed.json",
        ])
        #expect(removed.status == 1)
        #expect(removed.standardOutput.contains("accessory 766313939 Ceiling Fan removed"))
        #expect(removed.standardOutput.contains("1 change(s): 1 removed"))
        let same = try HapscopeBinary.run(["diff", Self.realDatabases + "velux_window.json", Self.realDatabases + "velux_window.json"])
        #expect(same.status == 0 && same.standardOutput.contains("the same accessories, services and characteristics"))
        let range = try HapscopeBinary.run([
            "diff", "--format", "json", Self.realDatabases + "home_assistant_bridge_humidifier.json",
            Self.realDatabases + "home_assistant_bridge_humidifier_new_range.json",
        ])
        let root = try JSONDocument(bytes: Array(range.outputBytes)).root
        let change = try #require(root["comparisons"]?.arrayValue?.first?["changes"]?.arrayValue?.first)
        #expect(change["kind"]?.stringValue == "changed" && change["element"]?.stringValue == "characteristic")
        #expect(change["differences"]?.arrayValue?.first?["path"]?.stringValue == "[1].services[1].characteristics[4].maxValue")
    }

    @Test func diffOfTwoCapturesComparesTheirDatabasesAndNamesRenumberedIIDs() throws {
        let result = try HapscopeBinary.run([
            "diff", "captures/renumbered-a.pcap", "captures/renumbered-b.pcap", "--keylog", "captures/renumbered-a.keylog",
            "--keylog", "captures/renumbered-b.keylog",
        ])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("2.9 → 2.109 On (service 2.108 Lightbulb) renumbered"))
        #expect(result.standardOutput.contains("19 change(s): 19 renumbered"))
        // Values count only with --values: the lamp and the sensor read the same here.
        let values = try HapscopeBinary.run(["diff", "--values", Self.realDatabases + "ecobee3_lite.json", Self.realDatabases + "ecobee3_lite.json"])
        #expect(values.status == 0)
    }

    @Test func diffNeedsTwoInputsWithADatabase() throws {
        #expect(try HapscopeBinary.run(["diff", Self.realDatabases + "velux_window.json"]).status == 2)
        let noKeys = try HapscopeBinary.run(["diff", "--no-keylog", "captures/config-a.pcap", "captures/config-b.pcap"])
        #expect(noKeys.status == 2 && noKeys.standardError.contains("no GET /accessories response could be read"))
    }
}
