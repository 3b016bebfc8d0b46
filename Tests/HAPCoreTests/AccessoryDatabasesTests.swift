import HAPJSON
import Testing
import WireParsing
@testable import HAPCore

@Suite("The accessory databases of a run")
struct AccessoryDatabasesTests {
    private func database(_ name: String) throws -> (AccessoryDatabase, [UInt8]) {
        let body = Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"\#(name)"}]}]}]}"#.utf8)
        var cursor = ByteCursor(body.span.bytes, layer: .json)
        return (try AccessoryDatabase(parsing: &cursor), body)
    }

    @Test("a stored database is found under its accessory's key, with the body it was read from")
    func storeAndFind() throws {
        var databases = AccessoryDatabases()
        #expect(databases["1A:2B:3C:4D:5E:6F"] == nil)
        let (lamp, body) = try database("Lamp")
        databases.store(lamp, body: body, for: "1A:2B:3C:4D:5E:6F")
        #expect(databases["1A:2B:3C:4D:5E:6F"]?.body == body)
        #expect(databases["1A:2B:3C:4D:5E:6F"]?.database.accessories.first?.name == "Lamp")
        #expect(databases["10.0.0.2:51826"] == nil, "another accessory's key")
    }

    @Test("a newer database replaces the older one of the same accessory")
    func replace() throws {
        var databases = AccessoryDatabases()
        let (lamp, lampBody) = try database("Lamp")
        let (fan, fanBody) = try database("Fan")
        databases.store(lamp, body: lampBody, for: "a")
        databases.store(fan, body: fanBody, for: "a")
        #expect(databases["a"]?.database.accessories.first?.name == "Fan")
        #expect(databases["a"]?.body == fanBody)
    }
}
