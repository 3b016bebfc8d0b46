import Audit
import HAPEvents
import HAPPDU
import Packets
import Testing
import TestSupport
import WireParsing
@testable import BLETransport

/// The discovery rules on HAP-BLE advertisements, over the recorded `lamp` story with one
/// advertisement changed as a misbehaving accessory would send it.
@Suite("Discovery rules on HAP-BLE advertisements")
struct BLEAdvertisementRuleTests {
    /// lamp's events with a regular advertisement appended a minute after the last packet: the
    /// lamp's own, with `statusFlags` and `setupHash` replaced.
    static func lampThen(statusFlags: UInt8, setupHash: [UInt8] = [0x60, 0x78, 0xBF, 0x94]) throws -> (events: [HAPEvent], packet: Int) {
        let analysis = try BLEAnalysis("lamp")
        let last = try #require(analysis.events.compactMap(\.packet).last)
        let bytes: [UInt8] = [0x06, 0x31, statusFlags, 0x1A, 0x2B, 0x3C, 0x4D, 0x5E, 0x6F, 0x05, 0x00, 0x04, 0x00, 0x01, 0x02] + setupHash
        var cursor = ByteCursor(bytes.span.bytes, layer: .hapPDU)
        let advertisement = try HAPBLEAdvertisement(manufacturerData: &cursor)
        let advertiser = try #require(analysis.payloads { if case .bleAdvertisement(let value) = $0 { value.advertiser } else { nil } }.first)
        let packet = PacketInfo(number: last.number + 1, timestamp: Timestamp(seconds: last.timestamp.seconds + 60, nanoseconds: 0),
                                capturedLength: 60, originalLength: 60)
        let setupHashCheck = SetupHashCheck(setupID: "HSCP", deviceID: "1A:2B:3C:4D:5E:6F", expected: [0x60, 0x78, 0xBF, 0x94], advertised: setupHash)
        let injected = HAPEvent(packet: packet, kind: .bleAdvertisement(BLEAdvertisementEvent(
            advertiser: advertiser, advertisement: advertisement, setupHash: setupHashCheck)))
        return (analysis.events + [injected], packet.number)
    }

    static func audit(_ events: [HAPEvent]) -> [Finding] {
        let auditor = Auditor()
        for event in events { auditor.consume(event) }
        return auditor.findings
    }

    @Test("The recorded lamp, paired and advertising it, raises nothing")
    func lampIsClean() throws {
        #expect(Self.audit(try BLEAnalysis("lamp").events).isEmpty)
        #expect(Self.audit(try Self.lampThen(statusFlags: 0).events).isEmpty)
    }

    @Test("Status flags 'not paired' a minute after pair-setup succeeded: sf-unpaired-while-paired, at that advertisement")
    func unpairedWhilePaired() throws {
        let (events, packet) = try Self.lampThen(statusFlags: 1)
        let findings = Self.audit(events)
        #expect(findings.map(\.rule) == [.statusFlagUnpairedWhilePaired])
        #expect(findings.first?.evidence.map(\.packet?.number) == [packet])
        #expect(findings.first?.evidence.first?.detail.contains("status flags=1") == true)
    }

    @Test("A setup hash that does not match the setup ID given: setup-hash-mismatch")
    func setupHashMismatch() throws {
        let (events, packet) = try Self.lampThen(statusFlags: 0, setupHash: [0, 0, 0, 0])
        let findings = Self.audit(events)
        #expect(findings.map(\.rule) == [.setupHashMismatch])
        #expect(findings.first?.evidence.map(\.packet?.number) == [packet])
    }

    @Test("With --setup-id HSCP the recorded advertisements' setup hash matches")
    func recordedSetupHashMatches() throws {
        let result = try HapscopeBinary.run(["audit", "--setup-id", "HSCP", "captures/ble/lamp.pcap"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let events = try HapscopeBinary.run(["events", "--setup-id", "HSCP", "captures/ble/lamp.pcap"])
        #expect(events.standardOutput.components(separatedBy: "(setup hash matches)").count - 1 == 3)
    }
}
