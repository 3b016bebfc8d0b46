import Audit
import HAPEvents
import HAPJSON
import HAPPDU
import Testing
import TestSupport
@testable import BLETransport

@Suite("Non-zero HAP-BLE PDU statuses in the recorded corpus")
struct PDUStatusActivityTests {
    @Test("ble-pdu-statuses: every non-zero status of the truth is the PDU status of its read or write, by IID and packet, read in HAP terms")
    func statuses() throws {
        let analysis = try BLEAnalysis("ble-pdu-statuses")
        let truth = analysis.truth["pdus"]?.arrayValue ?? []
        // The truth's responses with a status other than success, with the PDU record of each.
        let failed = try truth.indices.compactMap { index -> (iid: UInt64, opcode: Int64, status: UInt8, packet: Int)? in
            let pdu = truth[index]
            guard pdu["requestTid"] != nil, let status = pdu["status"]?.numberValue?.int64Value, status != 0 else { return nil }
            // The request is the PDU before the response on its connection with its TID.
            let request = try #require(truth[..<index].last { $0["tid"] == pdu["requestTid"] && $0["requestTid"] == nil })
            return (UInt64(request["iid"]?.numberValue?.int64Value ?? -1), pdu["opcode"]?.numberValue?.int64Value ?? -1, UInt8(status),
                    analysis.pdus[index].packet.number)
        }
        #expect(failed.map(\.status) == [HAPPDUStatus.unsupportedPDU, .invalidRequest, .invalidInstanceID].map(\.rawValue))
        let activities = analysis.payloads { if case .characteristic(let value) = $0 { value } else { nil } }.filter { $0.pduStatus != nil }
        #expect(activities.map(\.pduStatus?.rawValue) == failed.map(\.status))
        #expect(activities.map(\.id.iid) == failed.map(\.iid))
        #expect(activities.map(\.kind) == failed.map { $0.opcode == 2 ? .write : .read })
        #expect(activities.map(\.status) == [.writeOnlyCharacteristic, .invalidValue, .resourceDoesNotExist])
        let packets = analysis.events.compactMap { event -> Int? in
            if case .characteristic(let activity) = event.kind, activity.pduStatus != nil { event.packet?.number } else { nil }
        }
        #expect(packets == failed.map(\.packet))
        #expect(activities.map { $0.pduStatus?.name } == ["Unsupported-PDU", "Invalid Request", "Invalid Instance ID"])

        // The audit names the write's PDU status at its packet.
        let auditor = Auditor()
        for event in analysis.events { auditor.consume(event) }
        let rejected = auditor.findings.filter { $0.rule == .writeRejected }
        #expect(rejected.count == 1)
        #expect(rejected.first?.evidence.map(\.packet?.number) == [failed[1].packet])
        #expect(rejected.first?.evidence.first?.detail.contains("PDU status Invalid Request (6)") == true)
        #expect(auditor.findings.count == 1, "\(auditor.findings.map(\.description))")
    }
}
