import Bluetooth
import Capture
import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import Testing
import TestSupport
@testable import BLETransport

/// One scenario of the BLE corpus (captures/ble/README.md) read through `BLETransport` alone,
/// with its key log: the PDUs it decoded and the events it emitted.
struct BLEAnalysis {
    let pdus: [BLEPDURecord]
    let events: [HAPEvent]
    let truth: JSONValue

    static let scenarios = [
        "lamp", "wrong-code", "multi-service", "long-values", "ble-wrong-tid", "ble-nonce-skip", "ble-plaintext-after-secure",
        "ble-unauthenticated-secure-read", "ble-pdu-statuses", "ble-gsn-not-bumped", "ble-broadcast-key-expired",
        "ble-configuration-number-unchanged",
    ]

    init(_ scenario: String, file: String = "pcap", withKeys: Bool = true) throws {
        let capture = RecordedCapture("ble/" + scenario)
        var configuration = AnalysisConfiguration()
        if withKeys { configuration.keyLog = try capture.keyLog() }
        var events: [HAPEvent] = []
        let context = AnalysisContext(configuration: configuration) { events.append($0) }
        let transport = BLETransport(context: context)
        var pdus: [BLEPDURecord] = []
        transport.onPDU = { pdus.append($0) }
        // CaptureFileReader hands btsnoop files to their own reader, the pcap to libpcap.
        let reader = try CaptureFileReader(files: [RecordedCapture.path("ble/\(scenario).\(file)")])
        while let packet = try reader.next() {
            let linkType = try #require(BluetoothLinkType(rawValue: packet.linkType.rawValue))
            transport.process(packet.bytes, linkType: linkType, packet: packet.info)
        }
        transport.finish()
        context.drainHeldEvents()
        self.pdus = pdus
        self.events = events
        truth = try capture.truth()
    }

    func payloads<T>(_ extract: (HAPEvent.Kind) -> T?) -> [T] { events.compactMap { extract($0.kind) } }

    /// The truth's PDUs as (direction, the PDU's encoding with its whole body, encrypted).
    var truthPDUs: [(direction: HAPDirection, bytes: [UInt8], encrypted: Bool)] {
        (truth["pdus"]?.arrayValue ?? []).compactMap { pdu in
            guard let direction = pdu["direction"]?.stringValue, let tid = pdu["tid"]?.numberValue?.int64Value else { return nil }
            func integer(_ key: String) -> Int64 { pdu[key]?.numberValue?.int64Value ?? 0 }
            let body = pdu["body"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
            let encrypted = pdu["encrypted"]?.boolValue ?? false
            if direction == "controller-to-accessory" {
                let request = HAPPDURequest(
                    opcode: HAPOpcode(rawValue: UInt8(integer("opcode"))), transactionID: UInt8(tid),
                    instanceID: UInt64(integer("iid")), bodyLength: body?.count, body: body ?? [])
                return (.controllerToAccessory, HAPPDU.request(request).encoded, encrypted)
            }
            let response = HAPPDUResponse(
                transactionID: UInt8(tid), status: HAPPDUStatus(rawValue: UInt8(integer("status"))),
                bodyLength: body?.count, body: body ?? [])
            return (.accessoryToController, HAPPDU.response(response).encoded, encrypted)
        }
    }
}

@Suite("BLETransport over the recorded BLE corpus")
struct RecordedBLECaptureTests {
    @Test("Every PDU of the truth, decrypted and reassembled, byte for byte and in order", arguments: BLEAnalysis.scenarios)
    func everyPDU(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let expected = analysis.truthPDUs
        #expect(expected.count > 0)
        #expect(analysis.pdus.count == expected.count)
        for (decoded, truth) in zip(analysis.pdus, expected) {
            #expect(decoded.direction == truth.direction)
            #expect(decoded.pdu.encoded == truth.bytes)
            #expect(decoded.encrypted == truth.encrypted)
        }
    }

    @Test("The btsnoop file tells the same story as the pcap", arguments: BLEAnalysis.scenarios)
    func btsnoop(scenario: String) throws {
        let pcap = try BLEAnalysis(scenario)
        let btsnoop = try BLEAnalysis(scenario, file: "btsnoop")
        #expect(pcap.pdus.map(\.pdu.encoded) == btsnoop.pdus.map(\.pdu.encoded))
        #expect(pcap.pdus.map(\.packet.number) == btsnoop.pdus.map(\.packet.number))
        #expect(pcap.events.count == btsnoop.events.count)
    }

    @Test("hapscope reads a btsnoop file as it reads the pcap")
    func btsnoopOnTheCommandLine() throws {
        let arguments = ["events", "--format", "ndjson", "--keylog", "captures/ble/lamp.keylog"]
        let pcap = try HapscopeBinary.run(arguments + ["captures/ble/lamp.pcap"])
        let btsnoop = try HapscopeBinary.run(arguments + ["captures/ble/lamp.btsnoop"])
        #expect(pcap.status == 0 && btsnoop.status == 0)
        // The same records at the same packets; Bumble's two snoopers stamp times of their own.
        let records = { (output: String) in
            output.split(separator: "\n").map { $0.split(separator: ",\"time\":").first.map(String.init) ?? "" }
                .filter { !$0.contains("\"input-opened\"") && !$0.contains("\"input-ended\"") }
        }
        #expect(records(pcap.standardOutput).count > 40)
        #expect(records(pcap.standardOutput) == records(btsnoop.standardOutput))
    }

    @Test("Connections open and close at the LE Connection Complete and Disconnection Complete events, with both addresses")
    func connections() throws {
        let analysis = try BLEAnalysis("lamp")
        let opened = analysis.payloads { if case .connectionOpened(let value) = $0 { value } else { nil } }
        let closed = analysis.payloads { if case .connectionClosed(let value) = $0 { value } else { nil } }
        let truth = analysis.truth["connections"]?.arrayValue ?? []
        #expect(opened.count == truth.count && closed.count == truth.count)
        for (event, connection) in zip(opened, truth) {
            #expect(event.handshakeSeen && event.recognisedBy == .leConnection)
            #expect(event.connection.transport == .bluetoothLE(connectionHandle: UInt16(connection["hciHandle"]?.numberValue?.int64Value ?? -1)))
            #expect(connection["controller"]?.stringValue == "\(event.connection.controller)/random")
            #expect(connection["accessory"]?.stringValue == "\(event.connection.accessory)/random")
        }
        #expect(closed.allSatisfy { $0.reason == .closed && $0.encrypted })
        // The truth's reason is the HCI error code of Disconnection Complete (0x13: the remote user ended it).
        #expect(closed.map { $0.disconnectionReason.map { Int64($0.rawValue) } } == truth.map { $0["reason"]?.numberValue?.int64Value })
    }

    @Test("A connection's summary counts the truth's ATT PDUs and HAP PDUs on it", arguments: BLEAnalysis.scenarios)
    func carriedPDUs(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let closed = analysis.payloads { if case .connectionClosed(let value) = $0 { value } else { nil } }
        #expect(!closed.isEmpty)
        for (number, summary) in closed.enumerated() {
            // The truth numbers its connections from 1, in the order they opened.
            let onIt = { (key: String) in (analysis.truth[key]?.arrayValue ?? []).filter { $0["connection"]?.numberValue?.int64Value == Int64(number + 1) }.count }
            #expect(summary.carried == .bluetoothLE(ConnectionSummary.BLECounters(attPDUs: onIt("att"), hapPDUs: onIt("pdus"))), "connection \(number + 1)")
        }
    }

    @Test("Every session of the truth starts, by pair-verify or pair-resume, with both directions decryptable", arguments: BLEAnalysis.scenarios)
    func sessions(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let starts = analysis.payloads { if case .sessionStarted(let value) = $0 { value } else { nil } }
        let truth = analysis.truth["sessions"]?.arrayValue ?? []
        #expect(starts.map(\.trigger) == truth.map { $0["how"]?.stringValue == "pair-resume" ? .pairResume : .pairVerify })
        #expect(starts.allSatisfy { $0.decryptable.count == 2 && $0.undecryptableBecause == nil })
    }

    @Test("Without the key log the sessions start undecryptable and no sealed PDU is decoded")
    func withoutKeys() throws {
        let analysis = try BLEAnalysis("lamp", withKeys: false)
        let starts = analysis.payloads { if case .sessionStarted(let value) = $0 { value } else { nil } }
        #expect(!starts.isEmpty && starts.allSatisfy { $0.decryptable.isEmpty })
        #expect(analysis.pdus.allSatisfy { !$0.encrypted })
        #expect(analysis.pdus.count == analysis.truthPDUs.filter { !$0.encrypted }.count)
    }

    @Test("Every pairing attempt of the truth is an exchange, ending as the truth says", arguments: BLEAnalysis.scenarios)
    func pairings(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let exchanges = analysis.payloads { if case .pairingExchange(let value) = $0 { value } else { nil } }
        // A pair-resume is followed by the transport (it starts the session), not as an exchange.
        let truth = (analysis.truth["pairings"]?.arrayValue ?? []).filter { $0["procedure"]?.stringValue != "pair-resume" }
        #expect(exchanges.map(\.procedure.rawValue) == truth.map { $0["procedure"]?.stringValue ?? "?" })
        #expect(exchanges.map(\.succeeded) == truth.map { $0["outcome"]?.stringValue == "success" })
    }

    @Test("The misbehaviours are reported: a wrong TID, a skipped nonce, plaintext after the session was secured")
    func misbehaviours() throws {
        let wrongTID = try BLEAnalysis("ble-wrong-tid").payloads { if case .sessionProblem(let value) = $0 { value } else { nil } }
        #expect(wrongTID.map(\.kind) == [.transactionMismatch] && wrongTID.first?.direction == .accessoryToController)
        #expect(wrongTID.first.map { $0.message.contains("has TID 71") && $0.message.contains("TID 70") } == true)
        let skip = try BLEAnalysis("ble-nonce-skip").payloads { if case .sessionProblem(let value) = $0 { value } else { nil } }
        #expect(skip.map(\.kind) == [.counterSkipped] && skip.first?.frameCounter == 12)
        let plaintext = try BLEAnalysis("ble-plaintext-after-secure").payloads { if case .sessionProblem(let value) = $0 { value } else { nil } }
        #expect(plaintext.map(\.kind) == [.plaintextAfterEncryption])
        let clean = try BLEAnalysis("lamp")
        #expect(clean.payloads { if case .sessionProblem(let value) = $0 { value } else { nil } }.isEmpty)
        #expect(clean.payloads { if case .problem(let value) = $0 { value } else { nil } }.isEmpty)
    }

    @Test("hapscope check: every BLE capture decodes exactly as captures/ble/expected says")
    func check() throws {
        let captures = BLEAnalysis.scenarios.sorted().map { "captures/ble/\($0).pcap" }
        let result = try HapscopeBinary.run(["check"] + captures)
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("ok   ") }.count == captures.count)
    }

    @Test("The accessory database rebuilt from discovery and signature reads has every HAP characteristic of the truth's GATT table, typed as the accessory declared it", arguments: ["lamp", "multi-service", "long-values"])
    func database(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let databases = analysis.payloads { if case .accessoryDatabase(let value) = $0 { value } else { nil } }
        let database = try #require(databases.last?.database)
        #expect(databases.allSatisfy { $0.error == nil })
        let values = (analysis.truth["gatt"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "characteristic-value" }
        #expect(values.count > 10)
        for value in values {
            let iid = try #require(value["iid"]?.numberValue?.uint64Value)
            let characteristic = try #require(database.characteristic(CharacteristicID(aid: 1, iid: iid)), "iid \(iid)")
            #expect(characteristic.type.description == value["type"]?.stringValue)
            #expect(characteristic.format?.rawValue == value["format"]?.stringValue, "iid \(iid)")
            let service = database.service(containing: CharacteristicID(aid: 1, iid: iid))
            #expect(service?.iid == value["serviceIid"]?.numberValue?.uint64Value, "iid \(iid)")
        }
        #expect(database.conformanceIssues(transport: .bluetoothOrThread).isEmpty)
    }

    @Test("A Timed-Write committed by Execute-Write is one timed write of the Timed-Write's value; a vendor characteristic's value is typed by its signature")
    func timedWriteAndSignatureFormats() throws {
        let analysis = try BLEAnalysis("multi-service")
        let activity = analysis.payloads { if case .characteristic(let value) = $0 { value } else { nil } }
        let timed = activity.filter(\.timedWrite)
        #expect(timed.map(\.id) == [CharacteristicID(aid: 1, iid: 99)] && timed.first?.kind == .write)
        #expect(timed.first?.value?.value == .unsignedInteger(0))
        let vendor = activity.filter { $0.id == CharacteristicID(aid: 1, iid: 114) }
        #expect(!vendor.isEmpty && vendor.allSatisfy { $0.format == .string })
        if case .string(let text)? = vendor.first?.value?.value { #expect(text.count == 300) } else { Issue.record("not a string") }
    }
}
