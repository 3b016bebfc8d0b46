import HAPEvents
import HAPJSON
import Packets
import Testing
import WireParsing
@testable import HAPCore

@Suite("The accessory databases of a run")
struct AccessoryDatabasesTests {
    private static let bridge = PeerAddress.ip(Endpoint(address: .v4(0xC0A8_0132), port: 51_826))  // 192.168.1.50
    private static let lamp = PeerAddress.ip(Endpoint(address: .v4(0xC0A8_0133), port: 51_826))  // 192.168.1.51

    private func database(_ name: String) throws -> (AccessoryDatabase, [UInt8]) {
        let body = Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"\#(name)"}]}]}]}"#.utf8)
        var cursor = ByteCursor(body.span.bytes, layer: .json)
        return (try AccessoryDatabase(parsing: &cursor), body)
    }

    private func name(_ found: AccessoryDatabases.Found?) -> String? {
        found?.database.accessories.first?.name
    }

    @Test("a stored database is found under its accessory's key, with the body it was read from")
    func storeAndFind() throws {
        var databases = AccessoryDatabases()
        #expect(databases["1A:2B:3C:4D:5E:6F"] == nil)
        let (lamp, body) = try database("Lamp")
        databases.store(lamp, body: body, for: "1A:2B:3C:4D:5E:6F", accessory: Self.bridge, input: "a.pcap")
        #expect(databases["1A:2B:3C:4D:5E:6F"]?.body == body)
        #expect(databases["1A:2B:3C:4D:5E:6F"]?.database.accessories.first?.name == "Lamp")
        #expect(databases["10.0.0.2:51826"] == nil, "another accessory's key")
    }

    @Test("a newer database replaces the older one of the same accessory")
    func replace() throws {
        var databases = AccessoryDatabases()
        let (lamp, lampBody) = try database("Lamp")
        let (fan, fanBody) = try database("Fan")
        databases.store(lamp, body: lampBody, for: "a", accessory: Self.bridge, input: nil)
        databases.store(fan, body: fanBody, for: "a", accessory: Self.bridge, input: nil)
        #expect(databases["a"]?.database.accessories.first?.name == "Fan")
        #expect(databases["a"]?.body == fanBody)
    }

    @Test("a connection whose device ID is unknown finds the database read from the same accessory address")
    func byAddress() throws {
        var databases = AccessoryDatabases()
        let (lamp, body) = try database("Lamp")
        databases.store(lamp, body: body, for: "1A:2B:3C:4D:5E:6F", accessory: Self.bridge, input: "a.pcap")
        let found = databases.found(deviceID: nil, accessory: Self.bridge, input: "a.pcap")
        #expect(name(found) == "Lamp")
        #expect(found?.source == .response)
        #expect(databases.found(deviceID: nil, accessory: Self.lamp, input: "a.pcap") == nil, "another address")
    }

    @Test("a database read in an earlier input is said to come from that input")
    func earlierInput() throws {
        var databases = AccessoryDatabases()
        let (lamp, body) = try database("Lamp")
        databases.store(lamp, body: body, for: "1A:2B:3C:4D:5E:6F", accessory: Self.bridge, input: "morning.pcap")
        let byID = databases.found(deviceID: "1a:2b:3c:4d:5e:6f", accessory: Self.lamp, input: "evening.pcap")
        #expect(name(byID) == "Lamp")
        #expect(byID?.source == .earlierInput("morning.pcap"))
    }

    @Test("supplied databases are matched by device ID, then address, then the dump that names no accessory")
    func supplied() throws {
        let (bridge, _) = try database("Bridge")
        let (lamp, _) = try database("Lamp")
        let (dump, _) = try database("Dump")
        let databases = AccessoryDatabases(supplied: [
            SuppliedDatabase(database: bridge, deviceID: "1A:2B:3C:4D:5E:6F", accessory: Self.bridge, source: "home.pcap, accessory 1A:2B:3C:4D:5E:6F"),
            SuppliedDatabase(database: lamp, deviceID: nil, accessory: Self.lamp, source: "home.pcap, accessory 192.168.1.51:51826"),
            SuppliedDatabase(database: dump, deviceID: nil, accessory: nil, source: "dump.json"),
        ])
        let byID = databases.found(deviceID: "1a:2b:3c:4d:5e:6f", accessory: Self.lamp, input: "now.pcap")
        #expect(name(byID) == "Bridge", "device IDs compare without regard to case, and before addresses")
        #expect(byID?.source == .supplied("home.pcap, accessory 1A:2B:3C:4D:5E:6F"))
        #expect(name(databases.found(deviceID: nil, accessory: Self.lamp, input: "now.pcap")) == "Lamp")
        let other = PeerAddress.ip(Endpoint(address: .v4(0x0A00_0002), port: 80))
        #expect(name(databases.found(deviceID: "AA:AA:AA:AA:AA:AA", accessory: other, input: "now.pcap")) == "Dump")
    }

    @Test("a database the run read comes before one supplied")
    func readBeforeSupplied() throws {
        let (read, body) = try database("Read")
        let (given, _) = try database("Given")
        var databases = AccessoryDatabases(supplied: [SuppliedDatabase(database: given, deviceID: nil, accessory: nil, source: "dump.json")])
        #expect(name(databases.found(deviceID: nil, accessory: Self.bridge, input: "a.pcap")) == "Given")
        databases.store(read, body: body, for: Self.bridge.description, accessory: Self.bridge, input: "a.pcap")
        #expect(name(databases.found(deviceID: nil, accessory: Self.bridge, input: "a.pcap")) == "Read")
    }
}
