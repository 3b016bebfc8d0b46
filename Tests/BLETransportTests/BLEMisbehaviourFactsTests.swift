import Audit
import Foundation
import HAPEvents
import HAPJSON
import Testing
import TestSupport
import WireParsing
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
        // gsn-not-bumped: disconnected-notifying handles, connection openings, GSN change times, and
        // the value of each such characteristic seen per connection (reads and writes that succeeded).
        let disconnectedNotifying = Set((truth["gatt"]?.arrayValue ?? []).compactMap { entry -> Int64? in
            guard let properties = integer(entry["hapProperties"]), properties & 0x0100 != 0 else { return nil }
            return integer(entry["handle"])
        })
        let opened = Dictionary((truth["connections"]?.arrayValue ?? []).compactMap { connection -> (Int64, Double)? in
            guard let number = integer(connection["connection"]), let time = connection["opened"]?.numberValue?.doubleValue else { return nil }
            return (number, time)
        }, uniquingKeysWith: { first, _ in first })
        let gsnChanges = (truth["gsn"]?.arrayValue ?? []).compactMap { $0["time"]?.numberValue?.doubleValue }
        var seen: [Int64: [Int64: String]] = [:]
        var requests: [Int64: JSONValue] = [:]
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
            case "gsn-not-bumped":
                guard let handle = integer(pdu["handle"]), disconnectedNotifying.contains(handle) else { continue }
                guard isResponse else { requests[connection] = pdu; continue }
                guard let request = requests.removeValue(forKey: connection), integer(pdu["status"]) == 0,
                      let iid = integer(request["iid"]), seen[connection]?[iid] == nil else { continue }
                let opcode = integer(request["opcode"])
                guard opcode == 2 || opcode == 3, let body = (opcode == 3 ? pdu : request)["body"]?.stringValue else { continue }
                seen[connection, default: [:]][iid] = body.isEmpty ? nil : Self.valueParameter(body)
                guard opcode == 3, let value = seen[connection]?[iid],
                      let earlier = seen.keys.filter({ $0 < connection && seen[$0]?[iid] != nil }).max(),
                      let since = opened[earlier], let time = pdu["time"]?.numberValue?.doubleValue else { continue }
                if seen[earlier]?[iid] != value, !gsnChanges.contains(where: { since <= $0 && $0 <= time }) { return index }
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

    /// The manufacturer data (after the Apple type and length bytes) of the first broadcast the truth
    /// journals 32,767 or more GSN increments (65535 wrapping to 1) after the accessory's latest
    /// broadcast key generation before it.
    static func expiredBroadcast(truth: JSONValue) -> [UInt8]? {
        let generations = (truth["broadcastKeys"]?.arrayValue ?? []).compactMap { key -> (time: Double, gsn: Int64)? in
            guard let time = key["time"]?.numberValue?.doubleValue, let gsn = key["gsn"]?.numberValue?.int64Value else { return nil }
            return (time, gsn)
        }
        for broadcast in truth["broadcasts"]?.arrayValue ?? [] {
            guard let time = broadcast["time"]?.numberValue?.doubleValue, let gsn = broadcast["gsn"]?.numberValue?.int64Value,
                  let generated = generations.last(where: { $0.time <= time }),
                  ((gsn - generated.gsn) % 65535 + 65535) % 65535 >= 32767,
                  let data = broadcast["manufacturerData"]?.stringValue.flatMap({ Hex.decode($0) }) else { continue }
            return Array(data.dropFirst(2))
        }
        return nil
    }

    /// The packet of the encrypted notification advertisement carrying `data`.
    static func notificationPacket(_ data: [UInt8], in events: [HAPEvent]) -> Int? {
        events.first { event in
            guard case .bleAdvertisement(let advertisement) = event.kind,
                  case .encryptedNotification(let notification) = advertisement.advertisement else { return false }
            return notification.advertisingID + notification.encryptedPayload + notification.truncatedTag == data
        }?.packet?.number
    }

    /// The hex of the Value parameter (0x01) of a base64 PDU body.
    static func valueParameter(_ base64: String) -> String? {
        guard let data = Data(base64Encoded: base64) else { return nil }
        let body = [UInt8](data)
        var offset = 0
        var value: [UInt8]?
        while offset + 2 <= body.count {
            let length = Int(body[offset + 1])
            if body[offset] == 0x01 { value = (value ?? []) + body[(offset + 2)..<min(body.count, offset + 2 + length)] }
            offset += 2 + length
        }
        return value.map { $0.map { String($0, radix: 16) }.joined(separator: ".") }
    }

    @Test("Each rule a misbehaving scenario declares fires once, at the packet of the PDU that broke it",
          arguments: ["ble-wrong-tid", "ble-nonce-skip", "ble-plaintext-after-secure", "ble-unauthenticated-secure-read", "ble-gsn-not-bumped",
                     "ble-broadcast-key-expired"])
    func atThePacket(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let auditor = Auditor()
        for event in analysis.events { auditor.consume(event) }
        let misbehaviours = try RecordedCapture("ble/" + scenario).misbehaviours()
        #expect(misbehaviours.count == 1)
        for misbehaviour in misbehaviours {
            let packet: Int
            if misbehaviour.rule == "broadcast-key-expired" {
                let data = try #require(Self.expiredBroadcast(truth: analysis.truth), "\(misbehaviour)")
                packet = try #require(Self.notificationPacket(data, in: analysis.events), "\(misbehaviour)")
            } else {
                let index = try #require(Self.misbehavingPDU(misbehaviour.rule, truth: analysis.truth), "\(misbehaviour)")
                packet = analysis.pdus[index].packet.number
            }
            let findings = auditor.findings.filter { $0.rule.slug == misbehaviour.rule }
            #expect(findings.count == 1)
            #expect(findings.first?.evidence.map(\.packet?.number) == [packet], "\(misbehaviour): expected packet \(packet)")
            #expect(findings.first?.connection?.id == misbehaviour.connectionNumber)
        }
    }

    @Test("The truth's criteria find nothing in the clean scenarios",
          arguments: ["lamp", "wrong-code", "multi-service", "long-values", "ble-pdu-statuses"])
    func cleanTruths(scenario: String) throws {
        let truth = try RecordedCapture("ble/" + scenario).truth()
        for rule in ["transaction-id-mismatch", "nonce-skip", "plaintext-after-encryption", "secure-access-without-session", "gsn-not-bumped"] {
            #expect(Self.misbehavingPDU(rule, truth: truth) == nil, "\(rule)")
        }
        #expect(Self.expiredBroadcast(truth: truth) == nil)
    }
}
