import Differences
import HAPJSON
import Testing

/// What `hapscope diff OLD NEW` will report, on the real databases kept with HAPJSON's tests and on
/// the bundled bridge's database.
@Suite struct AccessoryDatabaseComparisonTests {
    private func changes(_ old: JSONValue, _ new: JSONValue, ignoring: [IgnorePattern] = []) throws -> [String] {
        try #require(AccessoryDatabaseComparison(old: old, new: new, ignoring: ignoring)).changes.map(\.description)
    }

    /// The bridge's database as hapscope's `accessory-database` record has it.
    private let bridge: JSONValue

    init() throws {
        bridge = try Corpus.json(try Corpus.expectedLines("bridge")[36])
    }

    @Test(arguments: ["ecobee3_lite", "home_assistant_bridge_fan", "koogeek_p1eu", "netamo_doorbell", "mysa_living"])
    func aDatabaseHasNoChangeFromItself(name: String) throws {
        let database = try Corpus.realDatabase(name)
        #expect(try changes(database, database).isEmpty)
    }

    @Test func aNewRangeIsAChangedCharacteristic() throws {
        let found = try changes(try Corpus.realDatabase("home_assistant_bridge_humidifier"),
                                try Corpus.realDatabase("home_assistant_bridge_humidifier_new_range"))
        #expect(found == ["293334836.13 Relative Humidity Humidifier Threshold (service 293334836.8 Humidifier-Dehumidifier): maxValue: 100 → 80; minValue: 0 → 20"])
    }

    @Test func aRemovedBridgedAccessoryIsOneChange() throws {
        let fan = try Corpus.realDatabase("home_assistant_bridge_fan")
        let oneRemoved = try Corpus.realDatabase("home_assistant_bridge_fan_one_removed")
        #expect(try changes(fan, oneRemoved) == ["accessory 766313939 Ceiling Fan removed"])
        #expect(try changes(oneRemoved, fan) == ["accessory 766313939 Ceiling Fan added"])
    }

    @Test func addedCharacteristicsAreNamedWithTheirService() throws {
        let found = try changes(try Corpus.realDatabase("home_assistant_bridge_basic_light"),
                                try Corpus.realDatabase("home_assistant_bridge_light"))
        #expect(found == [
            "3982136094.611 Hue (service 3982136094.608 Lightbulb) added",
            "3982136094.612 Saturation (service 3982136094.608 Lightbulb) added",
        ])
    }

    @Test func aChangedValueIsNamedInTheAccessorysTerms() throws {
        let characteristic: [FieldPath.Segment] = [.key("accessories"), .index(3), .key("services"), .index(1), .key("characteristics"), .index(0)]
        let after = bridge.setting(characteristic, "value", to: .bool(false))
        let comparison = try #require(AccessoryDatabaseComparison(old: bridge, new: after))
        #expect(comparison.changes.map(\.description) == ["4.9 On (service 4.8 Outlet): value: true → false"])
        let change = try #require(comparison.changes.first)
        #expect(change.kind == .changed)
        #expect(change.differences.first?.path.description == "accessories[3].services[1].characteristics[0].value")
        #expect(try changes(bridge, after, ignoring: [try IgnorePattern("**.value")]).isEmpty)
    }

    @Test func renumberedIidsOfTheSameTypePathAreRenumberedNotRemovedAndAdded() throws {
        let service: [FieldPath.Segment] = [.key("accessories"), .index(3), .key("services"), .index(1)]
        let after = bridge
            .setting(service, "iid", to: .number(JSONNumber(20)))
            .setting(service + [.key("characteristics"), .index(0)], "iid", to: .number(JSONNumber(21)))
            .setting(service + [.key("characteristics"), .index(1)], "iid", to: .number(JSONNumber(22)))
        #expect(try changes(bridge, after) == [
            "service 4.8 → 4.20 Outlet renumbered",
            "4.9 → 4.21 On (service 4.20 Outlet) renumbered",
            "4.10 → 4.22 Outlet In Use (service 4.20 Outlet) renumbered",
        ])
    }

    @Test func anAccessoryUnderANewAidIsRecognisedByItsNameAndSerialNumber() throws {
        let after = bridge.setting([.key("accessories"), .index(3)], "aid", to: .number(JSONNumber(40)))
        #expect(try changes(bridge, after) == ["accessory 4 → 40 Coffee Maker renumbered"])
    }

    @Test func anotherTypeAtTheSameIidIsAnotherCharacteristic() throws {
        let characteristic: [FieldPath.Segment] = [.key("accessories"), .index(3), .key("services"), .index(1), .key("characteristics"), .index(1)]
        let after = bridge.setting(characteristic, "type", to: .string("8")).setting(characteristic, "typeName", to: .string("Brightness"))
        #expect(try changes(bridge, after) == [
            "4.10 Outlet In Use (service 4.8 Outlet) removed",
            "4.10 Brightness (service 4.8 Outlet) added",
        ])
    }

    @Test func typesAreComparedAsUUIDsWhateverTheirSpelling() throws {
        let short = try Corpus.json(#"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","value":"A"}]}]}]"#)
        let long = try Corpus.json(#"""
        {"accessories":[{"aid":1,"services":[{"iid":1,"type":"0000003E-0000-1000-8000-0026BB765291",
          "characteristics":[{"iid":2,"type":"00000023-0000-1000-8000-0026bb765291","value":"A"}]}]}]}
        """#)
        #expect(try changes(short, long).isEmpty)
    }

    @Test func numbersAreComparedByValue() throws {
        let before = try Corpus.json(#"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"11","maxValue":100}]}]}]"#)
        let after = try Corpus.json(#"[{"aid":1.0,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"11","maxValue":100.0}]}]}]"#)
        #expect(try changes(before, after).isEmpty)
    }

    @Test func valuesWithoutAListOfAccessoriesAreNotDatabases() throws {
        #expect(AccessoryDatabaseComparison(old: try Corpus.json(#"{"characteristics":[]}"#), new: bridge) == nil)
        #expect(AccessoryDatabaseComparison(old: bridge, new: .string("x")) == nil)
    }

    @Test func anAccessoryWithNeitherAidNorNameAndSerialKeptIsRemovedAndAnotherAdded() throws {
        let comparison = try #require(AccessoryDatabaseComparison(
            old: try Corpus.realDatabase("ecobee3_lite"), new: try Corpus.realDatabase("ecobee3_service_removed")))
        let removedAccessories = comparison.changes.filter { $0.element == .accessory && $0.kind == .removed }
        // 13 accessories become 4: aid 1 stays; no other aid, Name or Serial Number is kept.
        #expect(removedAccessories.count == 12)
        #expect(comparison.changes.filter { $0.element == .accessory && $0.kind == .added }.count == 3)
        #expect(!comparison.changes.contains { $0.kind == .renumbered && $0.element == .accessory })
    }
}

/// Databases no accessory would send, which must still be compared in bounded time.
@Suite struct AccessoryDatabaseComparisonHostileTests {
    @Test func thousandsOfCharacteristicsSharingOneIidAndTypeArePairedInOrder() throws {
        let characteristic = #"{"iid":9,"type":"25","value":true}"#
        let many = Array(repeating: characteristic, count: 5000)
        func database(_ characteristics: [String]) throws -> JSONValue {
            try Corpus.json(#"[{"aid":1,"services":[{"iid":8,"type":"43","characteristics":["# + characteristics.joined(separator: ",") + "]}]}]")
        }
        let comparison = try #require(AccessoryDatabaseComparison(old: try database(many), new: try database(Array(many.dropLast()))))
        #expect(comparison.changes.map(\.description) == ["1.9 On (service 1.8 Lightbulb) removed"])
    }
}
