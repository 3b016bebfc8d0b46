import HAPCatalog
import Testing
import WireParsing
@testable import HAPJSON

/// The counts in `Fixtures/real-databases/README.md`: accessories, services, characteristics.
private let realDatabaseCounts: [String: (accessories: Int, services: Int, characteristics: Int)] = [
    "airversa_ap2": (1, 9, 54), "aqara_e1": (2, 8, 47), "aqara_switch": (1, 3, 14), "arlo_baby": (1, 12, 38),
    "connectsense": (1, 6, 36), "ecobee3_lite": (13, 63, 309), "ecobee3_no_sensors": (1, 5, 40),
    "ecobee3_service_removed": (4, 11, 59), "ecobee_501": (1, 5, 44), "ecobee_occupancy": (1, 7, 18),
    "eve_degree": (1, 7, 32), "haa_fan": (2, 6, 18), "haa_fan1": (1, 4, 11), "haa_fan2": (1, 2, 7),
    "home_assistant_bridge_basic_cover": (3, 8, 33), "home_assistant_bridge_basic_fan": (3, 5, 23),
    "home_assistant_bridge_basic_heater_cooler": (2, 5, 23), "home_assistant_bridge_basic_light": (2, 5, 19),
    "home_assistant_bridge_cover": (3, 8, 34), "home_assistant_bridge_fan": (3, 5, 24),
    "home_assistant_bridge_fan_one_removed": (2, 3, 16), "home_assistant_bridge_heater_cooler": (2, 5, 24),
    "home_assistant_bridge_humidifier": (2, 4, 18), "home_assistant_bridge_humidifier_new_range": (2, 4, 18),
    "home_assistant_bridge_light": (2, 5, 21), "koogeek_p1eu": (1, 7, 32), "koogeek_sw2": (1, 5, 21),
    "lennox_e30": (1, 2, 15), "mss425f": (1, 7, 19), "mss565": (1, 3, 12), "multi_valve_irrigation_control": (1, 5, 37),
    "mysa_living": (1, 5, 19), "netamo_doorbell": (1, 9, 28), "netamo_smart_co_alarm": (1, 8, 37),
    "ryse_smart_bridge": (3, 8, 44), "ryse_smart_bridge_four_shades": (5, 14, 78), "simpleconnect_fan": (1, 8, 61),
    "somfy_venetian_blinds": (1, 2, 13), "velux_active_netatmo_co2": (1, 4, 14), "velux_window": (1, 2, 11),
    "velux_window_cover": (1, 2, 11), "vocolinc_vp3": (1, 6, 31),
]

func database(_ text: String) throws(DecodeError) -> AccessoryDatabase {
    try AccessoryDatabase(bytes: Array(text.utf8))
}

func realDatabase(_ name: String) throws -> AccessoryDatabase {
    try AccessoryDatabase(bytes: Fixtures.realDatabase(name))
}

@Suite struct AccessoryDatabaseTests {
    // MARK: Real databases

    @Test(arguments: Fixtures.realDatabaseNames)
    func everyRealDatabaseDecodesCompletely(_ name: String) throws {
        let database = try realDatabase(name)
        let expected = try #require(realDatabaseCounts[name])
        #expect(database.form == .accessoryList)
        #expect(database.accessories.count == expected.accessories)
        #expect(database.accessories.reduce(0) { $0 + $1.services.count } == expected.services)
        #expect(database.accessories.reduce(0) { $0 + $1.services.reduce(0) { $0 + $1.characteristics.count } } == expected.characteristics)
        // Nothing was skipped or misread: the only notes are keys HAP does not define.
        let unexpected = database.diagnostics.filter { $0.code != .nonHAPKey }
        #expect(unexpected.isEmpty, "\(unexpected)")
    }

    @Test func theRealDatabasesAddUpToTheReadmeTotals() throws {
        var totals = (accessories: 0, services: 0, characteristics: 0)
        for name in Fixtures.realDatabaseNames {
            for accessory in try realDatabase(name).accessories {
                totals.accessories += 1
                totals.services += accessory.services.count
                totals.characteristics += accessory.services.reduce(0) { $0 + $1.characteristics.count }
            }
        }
        #expect(totals == (80, 302, 1463))
    }

    @Test func aidsAbove2To32AreKeptExactly() throws {
        let aids = try realDatabase("ecobee3_lite").accessories.map(\.aid)
        #expect(aids.first == 1)
        #expect(aids[1] == 4_295_608_971)
        #expect(aids.allSatisfy { $0 == 1 || $0 > UInt64(UInt32.max) })
    }

    @Test func anIIDAloneNamesTheCharacteristicOfTheFirstAccessoryHoldingIt() throws {
        let database = try realDatabase("ecobee3_lite")
        let iids = database.accessories.map { Set($0.services.flatMap { $0.characteristics.map(\.iid) }) }
        let inFirst = try #require(iids[0].min())
        let onlyInSecond = try #require(iids[1].subtracting(iids[0]).min())
        #expect(database.characteristicID(iid: inFirst) == CharacteristicID(aid: 1, iid: inFirst))
        #expect(database.characteristicID(iid: onlyInSecond) == CharacteristicID(aid: database.accessories[1].aid, iid: onlyInSecond))
        let absent = (iids.map { $0.max() ?? 0 }.max() ?? 0) + 1
        #expect(database.characteristicID(iid: absent) == nil)
    }

    @Test func mixedCaseAndShortFormTypesAreNormalised() throws {
        let database = try realDatabase("ecobee3_no_sensors")
        let accessory = try #require(database.accessories.first)
        #expect(accessory.services.first?.type == HAPUUID(appleDefined: 0x3E))
        #expect(accessory.services.first?.name == "Accessory Information")
        let mixedCase = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 68)))
        #expect(mixedCase.type == HAPUUID("A8F798E0-4A40-11E6-BDF4-0800200C9A66"))
        #expect(mixedCase.type.description == "A8F798E0-4A40-11E6-BDF4-0800200C9A66")
        #expect(mixedCase.name == nil)
    }

    @Test func nullValuesAreLegalForAnyFormat() throws {
        let database = try realDatabase("airversa_ap2")
        let signature = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 17)))
        #expect(signature.name == "Service Signature")
        #expect(signature.format == .data)
        #expect(signature.jsonValue == .null)
        #expect(signature.value == .null)
        #expect(signature.valueIssues.isEmpty)
    }

    @Test func dumpToolKeysAreIgnoredWithANote() throws {
        let database = try realDatabase("koogeek_p1eu")
        let notes = database.diagnostics.filter { $0.code == .nonHAPKey }
        #expect(notes.count == 7)
        #expect(notes.allSatisfy { $0.severity == .note && $0.path.hasSuffix("/stype") })
        #expect(notes.first?.path == "/0/services/0/stype")
        #expect(database.accessories.first?.services.map(\.name) == [
            "Accessory Information", "Outlet", nil, nil, nil, nil, "Protocol Information",
        ])
    }

    @Test func vendorExtraKeysAreIgnoredWithANoteWhereverTheyAppear() throws {
        let mysa = try realDatabase("mysa_living")
        let keys = mysa.diagnostics.map { $0.path.split(separator: "/").last.map(String.init) ?? "" }
        #expect(Set(keys) == ["primary", "stepValue", "hidden"])
        #expect(mysa.diagnostics.first { $0.path == "/0/primary" } != nil)
        let haa = try realDatabase("haa_fan2")
        #expect(haa.diagnostics.allSatisfy { $0.path.hasSuffix("/aid") && $0.path.contains("/characteristics/") })
    }

    @Test func namedServicesAndCharacteristicsComeFromTheCatalogue() throws {
        let ecobee = try realDatabase("ecobee3_lite")
        let bridge = try #require(ecobee.accessory(aid: 1))
        let thermostat = try #require(bridge.service(iid: 16))
        #expect(thermostat.name == "Thermostat")
        let temperature = try #require(thermostat.characteristic(ofType: HAPUUID(appleDefined: 0x11)))
        #expect(temperature.name == "Current Temperature")
        #expect(temperature.unit == .celsius)
        #expect(temperature.value == .float(21.2))
        #expect(temperature.definition?.format == .float)
        let mode = try #require(thermostat.characteristic(ofType: HAPUUID(appleDefined: 0x33)))
        #expect(mode.name == "Target Heating Cooling State")
        #expect(mode.value == .unsignedInteger(0))
        #expect(mode.definition?.name(ofValue: 0) == "OFF")
        #expect(ecobee.service(containing: CharacteristicID(aid: 1, iid: 19))?.iid == 16)

        let airversa = try realDatabase("airversa_ap2")
        #expect(airversa.accessories.first?.name == "Airversa AP2 1808")
        let information = try #require(airversa.accessories.first?.accessoryInformation)
        #expect(information.characteristic(ofType: HAPUUID(appleDefined: 0x20))?.value == .string("Sleekpoint Innovations"))
        #expect(information.characteristic(ofType: HAPUUID(appleDefined: 0x14))?.permissions == [.pairedWrite])
    }

    @Test func theHAPBodyFormAndTheListFormDecodeAlike() throws {
        let list = try Fixtures.realDatabase("home_assistant_bridge_light")
        let body = Array(#"{"accessories":"#.utf8) + list + Array("}".utf8)
        let fromList = try AccessoryDatabase(bytes: list)
        let fromBody = try AccessoryDatabase(bytes: body)
        #expect(fromBody.form == .accessoriesObject)
        #expect(fromBody.accessories.map(\.aid) == fromList.accessories.map(\.aid))
        #expect(AccessoryDatabaseDiff(from: fromList, to: fromBody).isEmpty)
        // Offsets stay absolute: the body's are shifted by the 15-byte prefix.
        #expect(fromBody.accessories.first?.offset == (fromList.accessories.first?.offset ?? 0) + 15)
    }

    // MARK: Lenient decoding

    @Test func malformedElementsAreSkippedWithTheirPathAndOffsetAndTheRestIsKept() throws {
        let text = #"""
        {"accessories":[
          {"aid":1,"services":[
            {"iid":1,"type":"3E","characteristics":[
              {"iid":2,"type":"23","perms":["pr"],"format":"string","value":"Lamp"},
              {"type":"20","perms":["pr"],"format":"string","value":"Acme"},
              "not an object",
              {"iid":5,"type":"not a uuid","format":"bool"}]},
            {"iid":6,"type":"43"},
            {"iid":7,"type":"43","characteristics":[{"iid":8,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":1}]}]},
          {"services":[]},
          {"aid":3,"services":{}},
          {"aid":4,"services":[],"name":"extra"}],
         "c#":2}
        """#
        let database = try database(text)
        #expect(database.accessories.map(\.aid) == [1, 4])
        #expect(database.accessories[0].services.map(\.iid) == [1, 7])
        #expect(database.accessories[0].services[0].characteristics.map(\.iid) == [2])
        #expect(database.characteristic(CharacteristicID(aid: 1, iid: 8))?.value == .bool(true))

        let found = database.diagnostics.map { "\($0.code) \($0.path)" }
        #expect(found == [
            "malformed-characteristic /accessories/0/services/0/characteristics/1",
            "malformed-characteristic /accessories/0/services/0/characteristics/2",
            "malformed-characteristic /accessories/0/services/0/characteristics/3",
            "malformed-service /accessories/0/services/1",
            "malformed-accessory /accessories/1",
            "malformed-accessory /accessories/2",
            "non-hap-key /accessories/3/name",
            "non-hap-key /c#",
        ])
        let bytes = Array(text.utf8)
        for diagnostic in database.diagnostics where diagnostic.code != .nonHAPKey {
            // Each offset points at the opening of the element it names.
            #expect([UInt8(ascii: "{"), UInt8(ascii: "\"")].contains(bytes[diagnostic.offset]), "\(diagnostic)")
        }
        #expect(database.diagnostics.first { $0.path.hasSuffix("/characteristics/3") }?.iid == 5)
    }

    @Test func unusableOptionalFieldsAreIgnoredWithAWarning() throws {
        let database = try database(#"""
        [{"aid":1,"services":[{"iid":1,"type":"3E","primary":"yes","linked":[0],"characteristics":[
          {"iid":2,"type":"8","perms":"pr","format":7,"unit":"kelvin","minValue":"0","maxLen":-1,
           "valid-values":[1,"2"],"valid-values-range":[3,1],"ev":2,"description":false},
          {"iid":3,"type":"25"}]}]}]
        """#)
        let codes = database.diagnostics.map(\.code)
        #expect(codes.filter { $0 == .invalidField }.count == 10)
        // 3 has neither perms (which no controller can use it without) nor format.
        #expect(codes.filter { $0 == .missingField }.count == 1)
        #expect(codes.filter { $0 == .invalidPermissions }.count == 1)
        let characteristic = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 2)))
        #expect(characteristic.permissions == nil)
        #expect(characteristic.format == nil)
        #expect(characteristic.unit == nil)
        #expect(characteristic.unrecognizedUnit == "kelvin")
        #expect(characteristic.minimumValue == nil)
        #expect(database.accessories[0].services[0].isPrimary == nil)
    }

    @Test func aRootWithoutAnAccessoryListThrows() {
        for (text, offset) in [(#"{"accessory":[]}"#, 0), (#"{"accessories":{}}"#, 15), ("42", 0)] {
            var thrown: DecodeError?
            do { _ = try database(text) } catch { thrown = error }
            #expect(thrown == DecodeError(.malformed, layer: .hapJSON, offset: 0, expected: ""), "\(text)")
            #expect(thrown?.offset == offset, "\(text)")
        }
    }

    @Test func jsonErrorsSurfaceUnchanged() {
        var thrown: DecodeError?
        do { _ = try database(#"[{"aid":1,"services":[}]"#) } catch { thrown = error }
        #expect(thrown?.layer == .json)
        #expect(thrown?.offset == 22)
    }
}
