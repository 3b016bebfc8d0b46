import Capture
import Foundation
import HAPJSON
import Testing
import TestSupport

/// Every command on one HAP-over-Bluetooth-LE recording and one HAP-over-CoAP recording, as on
/// the IP ones: each must decode the capture's real content, not just exit 0.
///
/// The BLE capture is the btsnoop copy of `captures/ble/lamp`, so that its key log is the one
/// beside the pcap of the same traffic (`lamp.keylog`); the CoAP capture is
/// `captures/coap/clean.pcap`.
@Suite(.serialized) struct BLEAndCoAPCommandTests {
    private static let lamp = "captures/ble/lamp.btsnoop"
    private static let coap = "captures/coap/clean.pcap"

    /// One command on one capture: its exit status, what its output must say, and, for a
    /// command that writes a file (`OUT` in its arguments), what that file must hold.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        var status: Int32 = 0
        let says: [String]
        var writes: [String] = []

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let expectations: [Expectation] = [
        Expectation(arguments: ["summary", lamp], says: ["pair-setup 1 succeeded; pair-verify 1 succeeded", "1.51  Brightness"]),
        Expectation(arguments: ["discover", lamp], says: ["835 packets"]),
        Expectation(arguments: ["pairing", lamp], says: ["pair-setup", "pair-verify", "succeeded"]),
        // A GATT database carries no values: the accessory is named by the Name the controller read.
        Expectation(arguments: ["tree", lamp], says: ["Lightbulb", "Brightness", "GATT database at #", "aid 1  hapscope BLE Lamp"]),
        // The writes are inside the pair-verified session: only the key log shows them.
        Expectation(arguments: ["timeline", lamp], says: ["write       1.51    Brightness                  80 %", "event       1.51    Brightness                  65 %",
                                                          "26 characteristic entries"]),
        Expectation(arguments: ["events", "--format", "ndjson", lamp], says: [#""transport":"ble""#, #""kind":"write""#]),
        Expectation(arguments: ["stats", lamp], says: ["HAP connections 2"]),
        // Each HAP-PDU read and write is timed from its request to its response.
        Expectation(arguments: ["responses", lamp], says: ["responses  20 timed, 0 slower than 3.000 s", "1.51 Brightness"]),
        Expectation(arguments: ["audit", lamp], says: ["findings: none"]),
        Expectation(arguments: ["check", lamp], says: ["ok   \(lamp)"]),
        Expectation(arguments: ["summary", "--format", "html", "-o", "OUT", lamp], says: [], writes: ["<!DOCTYPE html>", "Brightness"]),
        Expectation(
            arguments: ["decrypt", "-w", "OUT", lamp],
            says: ["  #1 C0:77:00:00:00:01 → E1:2B:3C:4D:5E:6F (ble) copied encrypted: only HAP over IP sessions are rewritten"]),
        Expectation(
            arguments: ["diff", lamp, "captures/ble/multi-service.btsnoop"], status: 1,
            says: ["lamp.btsnoop, accessory 1A:2B:3C:4D:5E:6F, GATT database in packet #", "service 1.64 Battery added"]),

        Expectation(arguments: ["summary", coap], says: ["1 encrypted, 1 decrypted"]),
        Expectation(arguments: ["discover", coap], says: ["_hap._udp", "sf=0  status flags 0x0: paired"]),
        Expectation(arguments: ["pairing", coap], says: ["pair-setup on #1 ", "pair-verify"]),
        Expectation(arguments: ["tree", coap], says: ["Thread Transport", "Lightbulb", "database PDU at #", "aid 1  hapscope Thread Light"]),
        Expectation(arguments: ["timeline", coap], says: [#"Model                       "HSC-Thread-1""#]),
        Expectation(arguments: ["events", "--format", "ndjson", coap], says: [#""transport":"coap""#, #""kind":"event""#]),
        Expectation(arguments: ["stats", coap], says: ["HAP connections 3"]),
        Expectation(arguments: ["responses", coap], says: ["1.28 Current Temperature        3"]),
        // The clean recording's accessory keeps HAP's rules (docs/coap.md: its calibration).
        Expectation(arguments: ["audit", coap], says: ["findings: none"]),
        Expectation(arguments: ["check", coap], says: ["ok   \(coap)"]),
        Expectation(arguments: ["audit", "--format", "html", "-o", "OUT", coap], says: [],
                    writes: ["<!DOCTYPE html>", "No findings."]),
        Expectation(arguments: ["decrypt", "-w", "OUT", coap], says: ["  #2 [fd77::1]:49202 → [fd77::2]:5683 (coap) copied encrypted"]),
        Expectation(
            arguments: ["diff", coap, "captures/coap/large-database.pcap"], status: 1,
            says: ["clean.pcap, accessory 1A:2B:3C:4D:5E:6F, database PDU in packet #", "Lightbulb added"]),
    ]

    @Test(arguments: expectations) func theCommandTellsTheCapturesStory(_ expectation: Expectation) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(UUID())-output")
        defer { try? FileManager.default.removeItem(at: output) }
        let arguments = expectation.arguments.map { $0 == "OUT" ? output.path : $0 }
        let result = try HapscopeBinary.run(arguments + ["--no-color", "-q"])
        #expect(result.status == expectation.status, "\(result.standardError)")
        for text in expectation.says {
            #expect(result.standardOutput.contains(text), "\(text) not in:\n\(result.standardOutput)")
        }
        guard arguments.contains(output.path) else { return }
        let written = try Data(contentsOf: output)
        #expect(written.count > 10_000)
        for text in expectation.writes {
            #expect(String(decoding: written, as: UTF8.self).contains(text))
        }
    }

    @Test func theKeyLogBesideABTSnoopFileIsTheOneOfItsPcap() throws {
        let announced = try HapscopeBinary.run(["summary", Self.lamp])
        #expect(announced.standardError.contains("reading the key log captures/ble/lamp.keylog found beside captures/ble/lamp.btsnoop"))
        #expect(announced.standardOutput.contains("sessions    2 encrypted, 2 decrypted"))
        let without = try HapscopeBinary.run(["summary", Self.lamp, "--no-keylog", "-q"])
        #expect(without.standardOutput.contains("sessions    2 encrypted, 0 decrypted"))
    }

    @Test func theBLEEventStreamHoldsEveryDecryptedWriteAndTheResponsesEveryTimedPDU() throws {
        let events = try HapscopeBinary.run(["events", "--format", "ndjson", Self.lamp, "-q"])
        let records = try events.standardOutput.split(separator: "\n").map { try JSONDocument(bytes: Array($0.utf8)).root }
        let writes = records.filter { $0["type"]?.stringValue == "characteristic" && $0["kind"]?.stringValue == "write" }
        #expect(writes.compactMap { $0["characteristic"]?.stringValue } == ["1.2", "1.50", "1.51", "1.2"])

        let responses = try HapscopeBinary.run(["responses", "--format", "json", Self.lamp, "-q"])
        let timed = try JSONDocument(bytes: Array(responses.outputBytes)).root["responses"]?.arrayValue ?? []
        let requests = timed.compactMap { response in
            response["method"]?.stringValue.flatMap { method in response["target"]?.stringValue.map { "\(method) \($0)" } }
        }
        // 16 reads and 4 writes over both sessions, the Identify write before pair-verify among them.
        #expect(requests.count == 20)
        #expect(requests.contains("HAP-Characteristic-Read 1.51"))
        #expect(requests.contains("HAP-Characteristic-Write 1.50"))
        #expect(timed.allSatisfy { $0["verdict"]?.stringValue == "prompt" })
    }

    /// Over BLE and CoAP no HTTP carries the pairing bodies: the pairing messages do.
    @Test(arguments: [(lamp, 10), (coap, 10)]) func extractWritesThePairingBodies(_ capture: String, bodies: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(UUID())-bodies")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HapscopeBinary.run(["extract", "-d", directory.path, capture, "-q"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("wrote \(bodies) bodies and manifest.json to "))
        let manifest = try JSONDocument(bytes: Array(Data(contentsOf: directory.appendingPathComponent("manifest.json")))).root
        let messages = manifest.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages.prefix(2) == ["pair-setup M1", "pair-setup M2"])
        #expect(messages.contains("pair-verify M4"))
        // HAP: pair-setup M1 is State 1 and Method 0 (Pair Setup), nothing else from these controllers.
        let first = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().first { $0.hasPrefix("0001-") }
        let bytes = try first.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        #expect(bytes.map(Array.init) == [0x06, 0x01, 0x01, 0x00, 0x01, 0x00])
    }
}

/// `hapscope live -i bluetooth0` and `-i bluetooth-monitor` read link types 201 and 254 from
/// libpcap, and every packet, live or from a file, goes through the same dispatch on its link
/// type into the BLE transport. Without Bluetooth hardware (or kernel support) the live path
/// itself cannot run here; what can is the dispatch: the same traffic in a link type 254 file
/// must tell the same story as in its link type 201 file, and a kernel without Bluetooth
/// sockets gets a failure that says so.
@Suite(.serialized) struct BluetoothLinkTypeTests {
    /// Rewrites an H4-with-pseudo-header capture (201) as Linux monitor frames (254): the
    /// 4-byte direction and the H4 indicator become the monitor header's adapter index and
    /// opcode (BlueZ src/shared/btsnoop.h: command 2, event 3, ACL sent 4 and received 5).
    private static func monitorCopy(of capture: String, to file: URL) throws {
        let reader = try CaptureFileReader(files: [RecordedCapture.packageDirectory.appendingPathComponent(capture).path])
        let writer = try PcapWriter(file: file.path, linkType: .bluetoothLinuxMonitor)
        while let packet = try reader.next() {
            let bytes = Array(packet.bytes)
            try #require(packet.linkType == .bluetoothHCIH4WithPseudoHeader && bytes.count >= 5)
            let received = bytes[3] & 1 == 1
            let opcode: UInt8
            switch bytes[4] {
            case 0x01: opcode = 2
            case 0x04: opcode = 3
            case 0x02: opcode = received ? 5 : 4
            default: throw MonitorCopyError.unexpectedIndicator(bytes[4])
            }
            let frame = [0, 0, 0, opcode] + bytes[5...]
            frame.withUnsafeBytes { writer.write($0, timestamp: packet.info.timestamp) }
        }
        try writer.close()
    }

    private enum MonitorCopyError: Error {
        case unexpectedIndicator(UInt8)
    }

    @Test func aLinuxMonitorCaptureTellsTheSameStoryAsItsH4Capture() throws {
        let monitor = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(UUID())-lamp-monitor.pcap")
        defer { try? FileManager.default.removeItem(at: monitor) }
        try Self.monitorCopy(of: "captures/ble/lamp.pcap", to: monitor)
        let keyLog = ["--keylog", "captures/ble/lamp.keylog", "--no-color", "-q"]
        for command in ["timeline", "pairing", "tree"] {
            let h4 = try HapscopeBinary.run([command, "captures/ble/lamp.pcap"] + keyLog)
            let linuxMonitor = try HapscopeBinary.run([command, monitor.path] + keyLog)
            #expect(h4.status == 0 && linuxMonitor.status == 0)
            // The first line names the file and its link type; the rest is the analysis.
            let story = { (result: HapscopeBinary.Result) in result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("reading ") } }
            #expect(story(linuxMonitor) == story(h4), "\(command) differs")
        }
        let summary = try HapscopeBinary.run(["summary", monitor.path] + keyLog)
        #expect(summary.standardOutput.contains("link type 254"))
        #expect(summary.standardOutput.contains("sessions    2 encrypted, 2 decrypted"))
    }

    @Test func aKernelWithoutBluetoothSocketsIsNamedAsTheCause() throws {
        let result = try HapscopeBinary.run(["live", "-i", "bluetooth-monitor", "--duration", "1", "--no-color"])
        // On a machine with Bluetooth the capture runs for a second; without, it fails clearly.
        if result.status != 0 {
            #expect(result.status == 2)
            #expect(result.standardError.contains("capturing on bluetooth-monitor failed"))
            if result.standardError.contains("Address family not supported") {
                #expect(result.standardError.contains("this kernel has no Bluetooth sockets"))
            }
        }
    }
}
