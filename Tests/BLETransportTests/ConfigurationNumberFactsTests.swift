import Audit
import Bluetooth
import Capture
import HAPEvents
import HAPJSON
import Testing
import TestSupport
import WireParsing
@testable import BLETransport

/// The fact behind config-number-unchanged over HAP-BLE, where the truth says the accessory
/// changed its database without a new configuration number: the ATT response that first listed
/// a declaration the previous connection's discovery had not, found in the truth's own journal,
/// must be the finding's packet.
@Suite("config-number-unchanged, found at the packet of the truth's ATT response")
struct ConfigurationNumberFactsTests {
    /// The index, in the truth's `att`, of the first discovery response (Read By Group Type 0x11,
    /// Read By Type 0x09) listing an entry that the previous discovering connection's responses
    /// did not, when the accessory advertised the same configuration number before both.
    static func changedDiscovery(truth: JSONValue) -> Int? {
        func integer(_ value: JSONValue?) -> Int64? { value?.numberValue?.int64Value }
        let att = truth["att"]?.arrayValue ?? []
        let advertisements = (truth["advertisements"]?.arrayValue ?? []).compactMap { advertisement -> (Double, Int64)? in
            guard let time = advertisement["time"]?.numberValue?.doubleValue,
                  let number = integer(advertisement["decoded"]?["configNumber"]) else { return nil }
            return (time, number)
        }
        let connections = (truth["connections"]?.arrayValue ?? []).compactMap { connection -> (Int64, Double)? in
            guard let number = integer(connection["connection"]), let opened = connection["opened"]?.numberValue?.doubleValue else { return nil }
            return (number, opened)
        }.sorted { $0.1 < $1.1 }
        /// Each discovery response of a connection, with its index, as the hex of its entries.
        func responses(of connection: Int64) -> [(index: Int, entries: [String])] {
            att.enumerated().compactMap { index, op in
                guard integer(op["connection"]) == connection, let opcode = integer(op["opcode"]), opcode == 0x09 || opcode == 0x11,
                      let hex = op["pdu"]?.stringValue else { return nil }
                let bytes = Array(hex.utf8)
                let pdu = stride(from: 0, to: bytes.count - 1, by: 2).compactMap { UInt8(String(decoding: bytes[$0...$0 + 1], as: UTF8.self), radix: 16) }
                guard pdu.count >= 2, pdu[1] > 0 else { return nil }
                let length = Int(pdu[1])
                let entries = stride(from: 2, to: pdu.count - length + 1, by: length).map { start in
                    "\(opcode):" + pdu[start..<start + length].map { String($0, radix: 16) }.joined(separator: ".")
                }
                return (index, entries)
            }
        }
        var previous: (number: Int64, entries: Set<String>)?
        for (connection, opened) in connections {
            let listed = responses(of: connection)
            guard !listed.isEmpty else { continue }
            let number = advertisements.last { $0.0 < opened }?.1
            if let previous, let number, previous.number == number,
               let first = listed.first(where: { !Set($0.entries).isSubset(of: previous.entries) }) {
                return first.index
            }
            previous = number.map { ($0, Set(listed.flatMap(\.entries))) }
        }
        return nil
    }

    /// The packet number of each ATT PDU of the capture, in order: the truth's `att` order (the
    /// recorder checks the two are the same PDUs), read with the Bluetooth codecs alone.
    static func attPackets(_ scenario: String) throws -> [Int] {
        let reader = try CaptureFileReader(files: [RecordedCapture.path("ble/\(scenario).pcap")])
        var reassembler = ACLReassembler()
        var packets: [Int] = []
        while let packet = try reader.next() {
            let linkType = try #require(BluetoothLinkType(rawValue: packet.linkType.rawValue))
            let bytes = [UInt8](packet.bytes)
            var cursor = ByteCursor(bytes.span.bytes, layer: .bluetoothLink)
            guard case .packet(let direction, .aclData, _) = try HCIFrame(parsing: &cursor, linkType: linkType) else { continue }
            let header = try ACLDataHeader(parsing: &cursor)
            let offset = cursor.offset
            let fragment = cursor.readRemaining()
            let frame: [UInt8]? = switch reassembler.add(header, direction: direction, fragment: fragment, offset: offset).frame {
            case .inFragment?: Array(bytes[offset...])
            case .joined(let joined)?: joined
            case nil: nil
            }
            if let frame, try Self.carriesATT(frame) { packets.append(packet.info.number) }
        }
        return packets
    }

    /// Whether a whole L2CAP frame is on the ATT channel (Core Vol 3 Part A §2.1: CID 0x0004).
    static func carriesATT(_ frame: [UInt8]) throws -> Bool {
        var cursor = ByteCursor(frame.span.bytes, layer: .l2cap)
        return try L2CAPBasicHeader(parsing: &cursor).channel == .attribute
    }

    @Test("The finding is at the response that listed the added service, on connection 2, once")
    func atThePacket() throws {
        let scenario = "ble-configuration-number-unchanged"
        let analysis = try BLEAnalysis(scenario)
        let auditor = Auditor()
        for event in analysis.events { auditor.consume(event) }
        let misbehaviour = try #require(try RecordedCapture("ble/" + scenario).misbehaviours().only)
        #expect(misbehaviour.rule == AuditRule.configurationNumberUnchanged.slug)
        let index = try #require(Self.changedDiscovery(truth: analysis.truth))
        let packets = try Self.attPackets(scenario)
        #expect(packets.count == analysis.truth["att"]?.arrayValue?.count)
        let findings = auditor.findings.filter { $0.rule == .configurationNumberUnchanged }
        #expect(findings.count == 1)
        #expect(findings.first?.evidence.map(\.packet?.number) == [packets[index]])
        #expect(findings.first?.connection?.id == misbehaviour.connectionNumber)
    }

    @Test("The truth's criterion finds nothing in the other scenarios", arguments: BLEAnalysis.scenarios.filter { $0 != "ble-configuration-number-unchanged" })
    func otherTruths(scenario: String) throws {
        #expect(Self.changedDiscovery(truth: try RecordedCapture("ble/" + scenario).truth()) == nil)
    }
}
