import DNS
import HAPCrypto
import HAPEvents
import Packets
import Testing
import TestSupport
@testable import IPTransport

@Suite("Following mDNS")
struct DiscoveryTrackerTests {
    static let accessory = Endpoint(address: .v4(0x0A4D_0002), port: 5353)
    static let deviceID = "1A:2B:3C:4D:5E:6F"

    /// The events of one mDNS datagram from `sender`.
    private func process(_ message: [UInt8], _ tracker: DiscoveryTracker, from sender: Endpoint = accessory) -> [HAPEvent.Kind] {
        var kinds: [HAPEvent.Kind] = []
        message.withUnsafeBytes { payload in
            let datagram = UDPDatagram(
                packet: .numbered(1), source: sender, destination: Endpoint(address: .v4(0xE000_00FB), port: 5353), payload: payload)
            tracker.process(datagram) { kinds.append($0) }
        }
        return kinds
    }

    private func advertisements(_ kinds: [HAPEvent.Kind]) -> [AdvertisementEvent] {
        kinds.compactMap { if case .advertisement(let advertisement) = $0 { advertisement } else { nil } }
    }

    private func txt(configuration: Int = 1, statusFlags: Int = 1, id: String = deviceID, setupHash: String? = nil) -> [String] {
        ["c#=\(configuration)", "ff=0", "id=\(id)", "md=Lamp", "pv=1.1", "s#=1", "sf=\(statusFlags)", "ci=5"] + (setupHash.map { ["sh=\($0)"] } ?? [])
    }

    @Test("the first sighting of an instance has no changes; later ones list every TXT key that changed")
    func txtChanges() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        let first = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt()), tracker)).only)
        #expect(first.isFirstSighting)
        #expect(first.changes.isEmpty)
        #expect(first.isResponse)
        #expect(first.isHAP && !first.isMatter)
        let second = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(configuration: 2, statusFlags: 0)), tracker)).only)
        #expect(!second.isFirstSighting)
        #expect(second.changes == [TXTChange(key: "c#", old: "1", new: "2"), TXTChange(key: "sf", old: "1", new: "0")])
        #expect(second.changes.allSatisfy { $0.isSignificant })
        let third = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(configuration: 2, statusFlags: 0)), tracker)).only)
        #expect(third.changes.isEmpty)
    }

    @Test("instances are told apart by name, whatever its case")
    func instanceNames() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        _ = process(MDNSMessages.advertisement(instance: "Lamp", txt: txt()), tracker)
        #expect(advertisements(process(MDNSMessages.advertisement(instance: "LAMP", txt: txt()), tracker)).first?.isFirstSighting == false)
        #expect(advertisements(process(MDNSMessages.advertisement(instance: "Fan", txt: txt()), tracker)).first?.isFirstSighting == true)
    }

    @Test("a goodbye is reported but does not replace what the instance last advertised")
    func goodbye() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        _ = process(MDNSMessages.advertisement(instance: "Lamp", txt: txt()), tracker)
        let bye = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(configuration: 9), ttl: 0), tracker)).only)
        #expect(bye.service.isGoodbye)
        let next = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(configuration: 2)), tracker)).only)
        #expect(next.changes == [TXTChange(key: "c#", old: "1", new: "2")])
    }

    @Test("where an accessory listens is learned from its SRV and address records, with its device id")
    func endpoints() {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        _ = process(MDNSMessages.advertisement(instance: "Lamp", port: 51826, txt: txt(), address: [10, 77, 0, 9]), tracker)
        #expect(tracker.deviceIDs[Endpoint(address: .v4(0x0A4D_0002), port: 51826)] == Self.deviceID, "the sender's address")
        #expect(tracker.deviceIDs[Endpoint(address: .v4(0x0A4D_0009), port: 51826)] == Self.deviceID, "the advertised address")
        #expect(tracker.advertisedPorts == [51826])
    }

    @Test("a goodbye teaches no endpoint")
    func goodbyeTeachesNothing() {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        _ = process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(), ttl: 0), tracker)
        #expect(tracker.deviceIDs.isEmpty)
        #expect(tracker.advertisedPorts.isEmpty)
    }

    @Test("beyond maximumInstances the oldest instance and endpoint are forgotten, and each eviction counted")
    func evictions() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 2)
        for (index, name) in ["A", "B", "C"].enumerated() {
            _ = process(MDNSMessages.advertisement(instance: name, port: UInt16(50_000 + index), txt: txt(id: "AA:BB:CC:DD:EE:0\(index)")), tracker)
        }
        #expect(tracker.evictions == 2, "one instance and one endpoint")
        #expect(tracker.deviceIDs.count == 2)
        #expect(tracker.deviceIDs[Endpoint(address: .v4(0x0A4D_0002), port: 50_000)] == nil)
        #expect(tracker.advertisedPorts.count == 2, "ports are bounded too")
        let again = try #require(advertisements(process(MDNSMessages.advertisement(instance: "A", port: 50_000, txt: txt(id: "AA:BB:CC:DD:EE:00")), tracker)).only)
        #expect(again.isFirstSighting, "a forgotten instance is new again")
    }

    @Test("the bound is at least one, whatever was asked")
    func boundAtLeastOne() {
        #expect(DiscoveryTracker(setupID: nil, maximumInstances: 0).maximumInstances == 1)
    }

    @Test("an advertised setup hash is judged against the user's setup ID, on the advertisement that carries it")
    func setupHash() throws {
        let setupID = try SetupID("7OSX")
        let right = SetupHash(setupID: setupID, deviceID: Self.deviceID).base64
        let tracker = DiscoveryTracker(setupID: setupID, maximumInstances: 16)
        let good = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(setupHash: right)), tracker)).only)
        #expect(good.setupHash == SetupHashCheck(
            setupID: "7OSX", deviceID: Self.deviceID, expected: SetupHash(setupID: setupID, deviceID: Self.deviceID).bytes,
            advertised: SetupHash(setupID: setupID, deviceID: Self.deviceID).bytes))
        #expect(good.setupHashMatches == true)
        let wrong = SetupHash(setupID: try SetupID("ABCD"), deviceID: Self.deviceID).base64
        let bad = try #require(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(setupHash: wrong)), tracker)).only)
        #expect(bad.setupHashMatches == false)
        #expect(bad.setupHash?.expected == good.setupHash?.expected)
    }

    @Test("without a setup ID, or without an sh, nothing is judged")
    func setupHashNotJudged() throws {
        let hash = SetupHash(setupID: try SetupID("7OSX"), deviceID: Self.deviceID).base64
        let withoutID = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        #expect(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt(setupHash: hash)), withoutID)).first?.setupHash == nil)
        let withoutHash = DiscoveryTracker(setupID: try SetupID("7OSX"), maximumInstances: 16)
        #expect(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt()), withoutHash)).first?.setupHash == nil)
    }

    @Test("a query for HAP or Matter is reported with who asked; other services are not")
    func queries() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        let phone = Endpoint(address: .v4(0x0A4D_0001), port: 5353)
        let kinds = process(MDNSMessages.query(["_hap._tcp.local", "_airplay._tcp.local"]), tracker, from: phone)
        guard case .mdnsQuery(let query)? = kinds.only else {
            Issue.record("one query event, not \(kinds.count)")
            return
        }
        #expect(query.sender == phone)
        #expect(query.queries.map { $0.serviceType?.service } == ["_hap"])
        #expect(process(MDNSMessages.query(["_airplay._tcp.local"]), tracker).isEmpty)
    }

    @Test("a message that does not decode is one problem, and the tracker goes on")
    func undecodable() throws {
        let tracker = DiscoveryTracker(setupID: nil, maximumInstances: 16)
        guard case .problem(let problem)? = process([0, 0, 0x84, 0, 0, 0, 0, 9], tracker).only else {
            Issue.record("a problem")
            return
        }
        #expect(problem.kind == .undecodableMDNS)
        #expect(advertisements(process(MDNSMessages.advertisement(instance: "Lamp", txt: txt()), tracker)).count == 1)
    }

    @Test("mDNS is told by port 5353 at either end")
    func isMDNS() {
        func datagram(_ source: UInt16, _ destination: UInt16) -> Bool {
            [UInt8]().withUnsafeBytes { payload in
                DiscoveryTracker.isMDNS(UDPDatagram(
                    packet: .numbered(1), source: Endpoint(address: .v4(1), port: source), destination: Endpoint(address: .v4(2), port: destination),
                    payload: payload))
            }
        }
        #expect(datagram(5353, 5353))
        #expect(datagram(49_152, 5353))
        #expect(datagram(5353, 49_152))
        #expect(!datagram(53, 49_152))
    }
}
