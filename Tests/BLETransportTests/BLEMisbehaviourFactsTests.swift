import Audit
import Foundation
import HAPEvents
import HAPJSON
import Testing
import TestSupport
@testable import BLETransport

/// The facts behind the BLE audit rules, where the truth says the accessory misbehaved: the
/// misbehaving PDU is found in the truth's own journal (its TIDs, nonces, sessions and GATT
/// properties), and the finding must point at the packet that completed that PDU.
@Suite("The BLE misbehaviours, found at the packet of the truth's PDU")
struct BLEMisbehaviourFactsTests {
    /// The index, in the truth's `pdus`, of the PDU that breaks `rule`, read from the truth alone.
    static func misbehavingPDU(_ rule: String, truth: JSONValue) -> Int? {
        let pdus = truth["pdus"]?.arrayValue ?? []
        func integer(_ value: JSONValue?) -> Int64? { value?.numberValue?.int64Value }
        var sessionStarts: [Int64: Double] = [:]
        for session in truth["sessions"]?.arrayValue ?? [] {
            guard let connection = integer(session["connection"]), let time = session["t"]?.numberValue?.doubleValue else { continue }
            sessionStarts[connection] = min(time, sessionStarts[connection] ?? time)
        }
        let secureOnly = Set((truth["gatt"]?.arrayValue ?? []).compactMap { entry -> Int64? in
            guard let properties = integer(entry["hapProperties"]), properties & 0x0010 != 0, properties & 0x0001 == 0 else { return nil }
            return integer(entry["iid"])
        })
        var nextNonce: [String: Int64] = [:]
        for (index, pdu) in pdus.enumerated() {
            guard let connection = integer(pdu["connection"]), let direction = pdu["direction"]?.stringValue else { continue }
            let isResponse = direction == "accessory-to-controller"
            let encrypted = pdu["encrypted"]?.boolValue ?? false
            switch rule {
            case "transaction-id-mismatch":
                if isResponse, let tid = integer(pdu["tid"]), let request = integer(pdu["requestTid"]), tid != request { return index }
            case "nonce-skip":
                for fragment in pdu["fragments"]?.arrayValue ?? [] {
                    guard let nonce = integer(fragment["nonce"]) else { continue }
                    let key = "\(connection) \(direction)"
                    if nonce != nextNonce[key, default: 0] { return index }
                    nextNonce[key] = nonce + 1
                }
            case "plaintext-after-encryption":
                if !encrypted, let start = sessionStarts[connection], let time = pdu["time"]?.numberValue?.doubleValue, time > start {
                    return index
                }
            case "secure-access-without-session":
                if isResponse, sessionStarts[connection] == nil, integer(pdu["status"]) == 0, integer(pdu["opcode"]) == 3,
                   let iid = integer(pdu["iid"]), secureOnly.contains(iid) {
                    return index
                }
            default:
                return nil
            }
        }
        return nil
    }

    @Test("Each rule a misbehaving scenario declares fires once, at the packet of the PDU that broke it",
          arguments: ["ble-wrong-tid", "ble-nonce-skip", "ble-plaintext-after-secure", "ble-unauthenticated-secure-read"])
    func atThePacket(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let auditor = Auditor()
        for event in analysis.events { auditor.consume(event) }
        let misbehaviours = try RecordedCapture("ble/" + scenario).misbehaviours()
        #expect(misbehaviours.count == 1)
        for misbehaviour in misbehaviours {
            let index = try #require(Self.misbehavingPDU(misbehaviour.rule, truth: analysis.truth), "\(misbehaviour)")
            let packet = analysis.pdus[index].packet.number
            let findings = auditor.findings.filter { $0.rule.slug == misbehaviour.rule }
            #expect(findings.count == 1)
            #expect(findings.first?.evidence.map(\.packet?.number) == [packet], "\(misbehaviour): expected packet \(packet)")
            #expect(findings.first?.connection?.id == misbehaviour.connectionNumber)
        }
    }

    @Test("The truth's criteria find nothing in the clean scenarios", arguments: ["lamp", "wrong-code", "multi-service", "long-values"])
    func cleanTruths(scenario: String) throws {
        let truth = try RecordedCapture("ble/" + scenario).truth()
        for rule in ["transaction-id-mismatch", "nonce-skip", "plaintext-after-encryption", "secure-access-without-session"] {
            #expect(Self.misbehavingPDU(rule, truth: truth) == nil, "\(rule)")
        }
    }
}
