import Bluetooth
import Foundation
import HAPEvents
import HAPJSON
import HAPPDU
import Testing
import TestSupport
import WireParsing
@testable import BLETransport

@Suite("HomeKit advertisements remembered per accessory")
struct BLEAdvertisementTrackerTests {
    static let advertiser = BluetoothAddress(wireBytes: [0x6F, 0x5E, 0x4D, 0x3C, 0x2B, 0xE1])

    /// A regular advertisement as HAP lays it out: type 0x06, subtype 1 and length 13, status
    /// flags, device ID, category 5, GSN, configuration number 1, compatible version 2.
    static func regular(gsn: UInt16, flags: UInt8 = 0, device: UInt8 = 0x6F) throws -> HAPBLEAdvertisement {
        let bytes: [UInt8] = [0x06, 0x2D, flags, 0x1A, 0x2B, 0x3C, 0x4D, 0x5E, device, 0x05, 0x00, UInt8(gsn & 0xFF), UInt8(gsn >> 8), 0x01, 0x02]
        var cursor = ByteCursor(bytes.span.bytes, layer: .hapPDU)
        return try HAPBLEAdvertisement(manufacturerData: &cursor)
    }

    @Test("New data is new, with the accessory's previous advertisement; the same data again is a repeat")
    func repeatsAndChanges() throws {
        var tracker = BLEAdvertisementTracker(maximumAdvertisers: 4)
        #expect(tracker.observe(try Self.regular(gsn: 1, flags: 1), from: Self.advertiser, packet: .numbered(1)) == .new(previous: nil))
        #expect(tracker.observe(try Self.regular(gsn: 1, flags: 1), from: Self.advertiser, packet: .numbered(1)) == .repeated)
        guard case .regular(let first) = try Self.regular(gsn: 1, flags: 1) else { return }
        #expect(tracker.observe(try Self.regular(gsn: 2), from: Self.advertiser, packet: .numbered(1)) == .new(previous: first))
        #expect(tracker.forgotten == 0)
    }

    @Test("Beyond the bound the oldest accessory is forgotten, and counted")
    func bounded() throws {
        var tracker = BLEAdvertisementTracker(maximumAdvertisers: 2)
        for device in UInt8(1) ... 3 { _ = tracker.observe(try Self.regular(gsn: 1, device: device), from: Self.advertiser, packet: .numbered(1)) }
        #expect(tracker.forgotten == 1)
        // The first was forgotten: it is new again.
        #expect(tracker.observe(try Self.regular(gsn: 1, device: 1), from: Self.advertiser, packet: .numbered(1)) == .new(previous: nil))
        #expect(tracker.observe(try Self.regular(gsn: 1, device: 3), from: Self.advertiser, packet: .numbered(1)) == .repeated)
    }

    @Test("An advertiser's latest sighting, repeats included, gives its GSN and CN; an opened notification's GSN stands until the next")
    func latestSighting() throws {
        var tracker = BLEAdvertisementTracker(maximumAdvertisers: 4)
        func latest() -> [Int]? { tracker.latestGlobalStateNumber(from: Self.advertiser).map { [Int($0.globalStateNumber), $0.packet.number] } }
        #expect(latest() == nil)
        _ = tracker.observe(try Self.regular(gsn: 3), from: Self.advertiser, packet: .numbered(1))
        _ = tracker.observe(try Self.regular(gsn: 3), from: Self.advertiser, packet: .numbered(2))
        #expect(latest() == [3, 2])
        tracker.opened(globalStateNumber: 4, from: Self.advertiser, packet: .numbered(5))
        #expect(latest() == [4, 5])
        #expect(tracker.latestRegular(from: Self.advertiser).map { [Int($0.advertisement.configurationNumber), $0.packet.number] } == [1, 2])
        _ = tracker.observe(try Self.regular(gsn: 5), from: Self.advertiser, packet: .numbered(6))
        #expect(latest() == [5, 6])
    }

    @Test("The changed fields are named as their Bonjour counterparts")
    func changedFields() throws {
        guard case .regular(let previous) = try Self.regular(gsn: 1, flags: 1) else { return }
        let event = BLEAdvertisementEvent(advertiser: Self.advertiser, advertisement: try Self.regular(gsn: 2), previous: previous)
        #expect(event.changedFields == [.statusFlags, .globalStateNumber])
        #expect(!event.isFirstSighting)
        #expect(BLEAdvertisementEvent(advertiser: Self.advertiser, advertisement: try Self.regular(gsn: 2)).isFirstSighting)
    }
}

@Suite("HomeKit advertisements in the recorded BLE corpus")
struct RecordedBLEAdvertisementTests {
    /// The truth's advertisements with each run of identical data counted once: what the
    /// accessory set, in order.
    static func truthAdvertisements(_ truth: JSONValue) -> [JSONValue] {
        var result: [JSONValue] = []
        for advertisement in truth["advertisements"]?.arrayValue ?? [] {
            if result.last?["manufacturerData"]?.stringValue != advertisement["manufacturerData"]?.stringValue { result.append(advertisement) }
        }
        return result
    }

    static func matches(_ event: BLEAdvertisementEvent, _ truth: JSONValue) -> Bool {
        let decoded = truth["decoded"]
        func integer(_ key: String) -> Int64? { decoded?[key]?.numberValue?.int64Value }
        switch event.advertisement {
        case .regular(let regular):
            return decoded?["type"]?.stringValue == "regular" && decoded?["deviceId"]?.stringValue == regular.deviceIDText
                && integer("statusFlags") == Int64(regular.statusFlags) && integer("category") == Int64(regular.category)
                && integer("gsn") == Int64(regular.globalStateNumber) && integer("configNumber") == Int64(regular.configurationNumber)
                && integer("compatibleVersion") == Int64(regular.compatibleVersion)
                && regular.setupHash.map { Data($0).base64EncodedString() } == decoded?["setupHash"]?.stringValue
        case .encryptedNotification(let notification):
            return decoded?["type"]?.stringValue == "encrypted-notification"
                && Hex.encode(notification.encryptedPayload) == decoded?["encryptedPayload"]?.stringValue
                && Hex.encode(notification.truncatedTag) == decoded?["tag"]?.stringValue
        }
    }

    @Test("Every advertisement event is one the accessory set, in the order it set them", arguments: BLEAnalysis.scenarios)
    func inTheTruth(scenario: String) throws {
        let analysis = try BLEAnalysis(scenario)
        let events = analysis.payloads { if case .bleAdvertisement(let value) = $0 { value } else { nil } }
        #expect(!events.isEmpty)
        var remaining = Self.truthAdvertisements(analysis.truth)[...]
        for event in events {
            guard let index = remaining.firstIndex(where: { Self.matches(event, $0) }) else {
                Issue.record("\(scenario): \(event.advertisement) is not in the truth (in order)")
                return
            }
            remaining = remaining[(index + 1)...]
        }
        #expect(events.first?.isFirstSighting == true)
        #expect(analysis.payloads { if case .problem(let value) = $0 { value } else { nil } }.isEmpty)
    }

    @Test("lamp: unpaired, paired (GSN 1→2), the disconnected event (GSN 2→3), then the encrypted notification")
    func lampOverTime() throws {
        let analysis = try BLEAnalysis("lamp")
        let events = analysis.payloads { if case .bleAdvertisement(let value) = $0 { value } else { nil } }
        #expect(events.count == Self.truthAdvertisements(analysis.truth).count)
        #expect(events.map(\.changedFields) == [[], [.statusFlags, .globalStateNumber], [.globalStateNumber], []])
        #expect(events.compactMap(\.regular).map(\.isPaired) == [false, true, true])
        #expect(events.allSatisfy { $0.advertiser.description == "E1:2B:3C:4D:5E:6F" })
        guard case .encryptedNotification(let notification)? = events.last?.advertisement else {
            Issue.record("the last advertisement is not the encrypted notification")
            return
        }
        #expect(Hex.encode(notification.advertisingID) == "1a2b3c4d5e6f")
    }

    @Test("The btsnoop file holds the same advertisements", arguments: ["lamp", "wrong-code"])
    func btsnoop(scenario: String) throws {
        func fields(_ analysis: BLEAnalysis) -> [HAPBLEAdvertisement] {
            analysis.payloads { if case .bleAdvertisement(let value) = $0 { value.advertisement } else { nil } }
        }
        #expect(fields(try BLEAnalysis(scenario)) == fields(try BLEAnalysis(scenario, file: "btsnoop")))
    }
}
