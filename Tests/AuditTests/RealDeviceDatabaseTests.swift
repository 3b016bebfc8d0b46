import Audit
import Foundation
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// Every database rule over the real-device dumps (Home Assistant's fixtures, Apache-2.0,
/// `Tests/HAPJSONTests/Fixtures/real-databases/README.md`), each fed to the audit as a dump: what
/// remains is the list of real defects docs/audit-rules.md gives ("Real devices"), and anything
/// else is a false positive to fix.
@Suite("Real-device databases")
struct RealDeviceDatabaseTests {
    static let directory = RecordedCapture.packageDirectory.appendingPathComponent("Tests/HAPJSONTests/Fixtures/real-databases")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    /// The dump as the command line reads it: an input of its own, then the end of the run.
    static func audit(_ files: [String]) throws -> [Finding] {
        let auditor = Auditor()
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            let dump = try AccessoryDatabaseDump(bytes: bytes)
            auditor.consume(HAPEvent(packet: nil, kind: .inputOpened(InputOpenedEvent(name: file, linkType: "dump", firstPacketTime: nil))))
            auditor.consume(HAPEvent(packet: nil, kind: .databaseDump(DatabaseDumpEvent(name: file, dump: dump, error: nil, byteCount: bytes.count))))
        }
        auditor.consume(HAPEvent(packet: nil, kind: .inputEnded(InputSummary())))
        return auditor.findings
    }

    /// The remaining findings, by file: each a real defect of that device (docs/audit-rules.md).
    static let realDefects: [String: Set<String>] = [
        "airversa_ap2.json": ["database/unexpected-characteristic", "database/value-out-of-range"],
        "ecobee3_lite.json": ["database/unexpected-characteristic", "database/value-out-of-range"],
        "ecobee_501.json": ["database/unexpected-characteristic", "database/value-out-of-range"],
        "eve_degree.json": ["database/unexpected-characteristic", "database/value-out-of-range"],
        "haa_fan.json": ["database/missing-accessory-information"],
        "home_assistant_bridge_basic_heater_cooler.json": ["database/missing-required-characteristic", "database/unexpected-characteristic"],
        "home_assistant_bridge_heater_cooler.json": ["database/missing-required-characteristic", "database/unexpected-characteristic"],
        "ryse_smart_bridge.json": ["database/missing-accessory-information"],
        "simpleconnect_fan.json": ["database/missing-accessory-information", "database/unexpected-characteristic", "database/value-out-of-range"],
    ]

    @Test("The 42 dumps are all there, read as dumps")
    func corpus() {
        #expect(Self.files.count == 42)
    }

    @Test("Every finding on a real device is one docs/audit-rules.md lists as its defect, and none is high")
    func onlyTheKnownDefects() throws {
        let findings = try Self.audit(Self.files)
        var found: [String: Set<String>] = [:]
        for finding in findings {
            found[finding.accessory ?? "?", default: []].insert(finding.rule.id)
        }
        #expect(found == Self.realDefects)
        #expect(findings.count == 17)
        #expect(!findings.reachSeverity(.high))
        // Database evidence from a dump names the file, the byte and the JSON Pointer, and no packet.
        #expect(findings.allSatisfy { finding in
            finding.evidence.allSatisfy { $0.packet == nil && $0.connection == nil && $0.detail.hasPrefix(finding.accessory ?? "-") }
        })
    }

    @Test("Off-step floats within ADK's tenth of a step, and vendors' read-only readings, are no finding")
    func stepTolerance() throws {
        // arlo_baby: humidity 60.099998 with a step of 1; connectsense: vendor amps and watts off their 0.1 steps.
        #expect(try Self.audit(["arlo_baby.json", "connectsense.json"]).isEmpty)
        let eve = try Self.audit(["eve_degree.json"]).first { $0.rule == .valueOutOfRange }
        #expect(eve?.evidence.map(\.detail).allSatisfy { $0.contains("Current Temperature") || $0.contains("Current Relative Humidity") } == true)
    }

    @Test("A Bluetooth dump's shared service and characteristic iids, and aiohomekit's formats, are no finding")
    func bluetoothDumps() throws {
        #expect(try Self.audit(["netamo_smart_co_alarm.json"]).isEmpty)
        let airversa = try Self.audit(["airversa_ap2.json"])
        #expect(!airversa.contains { $0.rule == .formatMismatch || $0.rule == .invalidPermissions })
    }
}
