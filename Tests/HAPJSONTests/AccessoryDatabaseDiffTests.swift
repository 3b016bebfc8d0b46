import HAPCatalog
import Testing
@testable import HAPJSON

@Suite struct AccessoryDatabaseDiffTests {
    @Test func aDatabaseDiffedWithItselfHasNoChanges() throws {
        let ecobee = try realDatabase("ecobee3_lite")
        #expect(AccessoryDatabaseDiff(from: ecobee, to: ecobee).isEmpty)
    }

    @Test func aRemovedBridgedAccessoryIsOneChange() throws {
        let diff = AccessoryDatabaseDiff(from: try realDatabase("home_assistant_bridge_fan"),
                                         to: try realDatabase("home_assistant_bridge_fan_one_removed"))
        #expect(diff.changes == [.accessoryRemoved(aid: 766_313_939)])
        let back = AccessoryDatabaseDiff(from: try realDatabase("home_assistant_bridge_fan_one_removed"),
                                         to: try realDatabase("home_assistant_bridge_fan"))
        #expect(back.changes == [.accessoryAdded(aid: 766_313_939)])
    }

    @Test func aNewRangeIsAMetadataChange() throws {
        let diff = AccessoryDatabaseDiff(from: try realDatabase("home_assistant_bridge_humidifier"),
                                         to: try realDatabase("home_assistant_bridge_humidifier_new_range"))
        #expect(diff.changes == [.characteristicMetadataChanged(CharacteristicID(aid: 293_334_836, iid: 13), [
            .init(field: "minValue", old: "0", new: "20"), .init(field: "maxValue", old: "100", new: "80"),
        ])])
    }

    @Test func aRemovedCharacteristicIsReportedWithItsType() throws {
        let diff = AccessoryDatabaseDiff(from: try realDatabase("home_assistant_bridge_fan"),
                                         to: try realDatabase("home_assistant_bridge_basic_fan"))
        #expect(diff.changes.contains(.characteristicRemoved(CharacteristicID(aid: 1_256_851_357, iid: 11), type: HAPUUID(appleDefined: 0xB6))))
    }

    @Test func servicesValuesAndMovesAreCompared() throws {
        let before = try database(#"""
        [{"aid":1,"services":[
          {"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"Lamp"}]},
          {"iid":8,"type":"43","primary":true,"characteristics":[
            {"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":1,"ev":false},
            {"iid":10,"type":"8","perms":["pr","pw"],"format":"int","value":50}]},
          {"iid":20,"type":"49","characteristics":[]}]}]
        """#)
        let after = try database(#"""
        {"accessories":[{"aid":1,"services":[
          {"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"Lamp"}]},
          {"iid":8,"type":"43","primary":false,"linked":[30],"characteristics":[
            {"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":true,"ev":true}]},
          {"iid":30,"type":"49","characteristics":[
            {"iid":10,"type":"8","perms":["pr","pw","ev"],"format":"int","value":60}]}]},
         {"aid":2,"services":[]}]}
        """#)
        let diff = AccessoryDatabaseDiff(from: before, to: after)
        #expect(diff.changes == [
            .serviceChanged(aid: 1, iid: 8, [.init(field: "primary", old: "true", new: "false"), .init(field: "linked", old: nil, new: "[30]")]),
            .serviceRemoved(aid: 1, iid: 20, type: HAPUUID(appleDefined: 0x49)),
            .serviceAdded(aid: 1, iid: 30, type: HAPUUID(appleDefined: 0x49)),
            .characteristicMetadataChanged(CharacteristicID(aid: 1, iid: 10), [
                .init(field: "service", old: "8", new: "30"), .init(field: "perms", old: "pr,pw", new: "pr,pw,ev"),
            ]),
            .characteristicValueChanged(CharacteristicID(aid: 1, iid: 10), old: .number(JSONNumber(50)), new: .number(JSONNumber(60))),
            .accessoryAdded(aid: 2),
        ])
        #expect(diff.changes.count == 6)
    }
}
