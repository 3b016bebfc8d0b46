import Testing
@testable import HAPJSON

/// An Accessory Information service with every required characteristic, iids `first` … `first + 6`.
private func information(
    name: String = "Lamp", manufacturer: String = "Acme", model: String = "L1", serial: String = "SN01", first: Int = 1
) -> String {
    #"""
    {"iid":\#(first),"type":"3E","characteristics":[
      {"iid":\#(first + 1),"type":"14","perms":["pw"],"format":"bool"},
      {"iid":\#(first + 2),"type":"20","perms":["pr"],"format":"string","value":"\#(manufacturer)"},
      {"iid":\#(first + 3),"type":"21","perms":["pr"],"format":"string","value":"\#(model)"},
      {"iid":\#(first + 4),"type":"23","perms":["pr"],"format":"string","value":"\#(name)"},
      {"iid":\#(first + 5),"type":"30","perms":["pr"],"format":"string","value":"\#(serial)"},
      {"iid":\#(first + 6),"type":"52","perms":["pr"],"format":"string","value":"1.0"}]}
    """#
}

private func issues(_ text: String) throws -> [HAPJSONDiagnostic] {
    try database(text).conformanceIssues()
}

@Suite struct AccessoryDatabaseConformanceTests {
    @Test func aCorrectDatabaseHasNoIssues() throws {
        let text = #"{"accessories":[{"aid":1,"services":[\#(information()),"#
            + #"{"iid":8,"type":"43","primary":true,"characteristics":[{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":1}]}]}]}"#
        #expect(try issues(text).isEmpty)
    }

    @Test func duplicateAIDsAreErrors() throws {
        let found = try issues(#"[{"aid":1,"services":[\#(information())]},{"aid":1,"services":[\#(information())]}]"#)
        #expect(found.map(\.code) == [.duplicateAID])
        #expect(found.first?.path == "/1")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("at byte 1") == true)
    }

    @Test func iidsAreUniqueWithinAnAccessoryAcrossServicesAndCharacteristics() throws {
        let text = #"[{"aid":1,"services":[\#(information()),"#
            + #"{"iid":8,"type":"43","characteristics":[{"iid":9,"type":"25","perms":["pr"],"format":"bool","value":0},"#
            + #"{"iid":9,"type":"8","perms":["pr"],"format":"int","value":0}]},"#
            + #"{"iid":8,"type":"49","characteristics":[{"iid":1,"type":"25","perms":["pr"],"format":"bool","value":0}]}]},"#
            + #"{"aid":2,"services":[\#(information())]}]"#
        let found = try issues(text).filter { $0.code == .duplicateIID }
        #expect(found.map(\.path) == ["/0/services/1/characteristics/1", "/0/services/2", "/0/services/2/characteristics/0"])
        #expect(found.map(\.severity) == [.error, .error, .warning])
        #expect(found.map(\.iid) == [9, 8, 1])
    }

    @Test func accessoryInformationMustBePresentOnceAndComplete() throws {
        let missing = try issues(#"[{"aid":1,"services":[]}]"#)
        #expect(missing.map(\.code) == [.missingAccessoryInformation])

        let partial = try issues(#"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"14","perms":["pw"],"format":"bool"}]}]}]"#)
        #expect(partial.map(\.code) == Array(repeating: .incompleteAccessoryInformation, count: 5))
        #expect(partial.map(\.message).contains("Accessory Information lacks Serial Number (30)"))

        let twice = try issues(#"[{"aid":1,"services":[\#(information()),\#(information(first: 11))]}]"#)
        #expect(twice.map(\.code) == [.duplicateAccessoryInformation])
    }

    @Test func accessoryInformationValuesFollowADKLengthRules() throws {
        let long = String(repeating: "x", count: 65)
        let found = try issues(#"[{"aid":1,"services":[\#(information(name: long, manufacturer: long, model: "", serial: "1"))]}]"#)
        #expect(found.map(\.code) == [.manufacturerLength, .valueTooLong, .modelLength, .nameLength, .valueTooLong, .serialNumberLength])
        let serial = try #require(found.first { $0.code == .serialNumberLength })
        #expect(serial.message == #"Serial Number "1" is 1 bytes; HomeKit accepts 2 to 64"#)
        #expect(serial.path == "/0/services/0/characteristics/4")
        #expect(serial.iid == 6)
    }

    @Test func unknownTypesInApplesRangeAndUnknownStringsAreReported() throws {
        let text = #"[{"aid":1,"services":[\#(information()),"#
            + #"{"iid":8,"type":"FFFF","characteristics":[{"iid":9,"type":"FFFE","perms":["pr","xx"],"format":"int8","unit":"kelvin","value":1}]},"#
            + #"{"iid":10,"type":"A8F798E0-4A40-11E6-BDF4-0800200C9A66","characteristics":[]}]}]"#
        let found = try issues(text)
        #expect(found.map(\.code) == [.unknownAppleServiceType, .unknownAppleCharacteristicType, .unknownPermission, .unknownFormat, .unknownUnit])
        #expect(found.map(\.severity) == [.warning, .warning, .warning, .error, .warning])
    }

    @Test func valueIssuesBecomeFindingsAtTheValue() throws {
        let text = #"[{"aid":1,"services":[\#(information()),"#
            + #"{"iid":8,"type":"43","characteristics":[{"iid":9,"type":"8","perms":["pr"],"format":"int","minValue":0,"maxValue":100,"value":150},"#
            + #"{"iid":10,"type":"25","perms":["pr"],"format":"bool","value":1}]}]}]"#
        let found = try issues(text)
        #expect(found.map(\.code) == [.valueOutOfBounds])
        let finding = try #require(found.first)
        #expect(finding.path == "/0/services/1/characteristics/0/value")
        #expect(finding.message == "Brightness value 150 is above the declared maximum 100.0")
        #expect(Array(text.utf8)[finding.offset ..< finding.offset + 3] == Array("150".utf8)[...])
    }

    /// The catalogue's rules, each on one service of an otherwise correct bridge.
    @Test func servicesFollowTheCatalogue() throws {
        func service(_ characteristics: String, type: String = "4A") -> String {
            #"[{"aid":1,"services":[\#(information()),{"iid":8,"type":"\#(type)","characteristics":[\#(characteristics)]}]}]"#
        }
        // Thermostat without Target Temperature (35).
        let thermostat = try issues(service(
            #"{"iid":9,"type":"F","perms":["pr","ev"],"format":"uint8","value":0},{"iid":10,"type":"33","perms":["pr","pw","ev"],"format":"uint8","value":0},"#
                + #"{"iid":11,"type":"11","perms":["pr","ev"],"format":"float","unit":"celsius","value":20},{"iid":12,"type":"36","perms":["pr","pw","ev"],"format":"uint8","value":0}"#))
        #expect(thermostat.map(\.code) == [.missingRequiredCharacteristic])
        #expect(thermostat.first?.iid == 8 && thermostat.first?.path == "/0/services/1")
        #expect(thermostat.first?.message.contains("lacks Target Temperature (35)") == true)
        // Outlet In Use (26) is required by some sources only: an Outlet without it is complete.
        #expect(try issues(service(#"{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":0}"#, type: "47")).isEmpty)
        // A Brightness in a Switch; a Service Signature anywhere.
        let switchService = try issues(service(
            #"{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":0},{"iid":10,"type":"8","perms":["pr","pw","ev"],"format":"int","value":0},"#
                + #"{"iid":11,"type":"A5","perms":["pr"],"format":"data","value":""}"#, type: "49"))
        #expect(switchService.map(\.code) == [.unexpectedCharacteristic])
        #expect(switchService.first?.iid == 10)
        // Brightness as float, Current Temperature in percentage; Color Temperature as int is one source's.
        let light = try issues(service(
            #"{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":0},{"iid":10,"type":"8","perms":["pr","pw","ev"],"format":"float","value":0},"#
                + #"{"iid":11,"type":"CE","perms":["pr","pw","ev"],"format":"int","minValue":140,"maxValue":500,"value":200}"#, type: "43"))
        #expect(light.map(\.code) == [.formatMismatch])
        #expect(light.first?.message == "Brightness has format float; the sources give int")
        let sensor = try issues(service(#"{"iid":9,"type":"11","perms":["pr","ev"],"format":"float","unit":"percentage","value":20}"#, type: "8A"))
        #expect(sensor.map(\.code) == [.unitMismatch])
        // Two Names; names HomeKit does not accept; perms missing, empty or undefined.
        let lamp = try issues(service(
            #"{"iid":9,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":0},{"iid":10,"type":"23","perms":["pr"],"format":"string","value":"Desk Lamp"},"#
                + #"{"iid":11,"type":"23","perms":["pr"],"format":"string","value":"Lamp ☕"},{"iid":12,"type":"8","format":"int","value":0},"#
                + #"{"iid":13,"type":"13","perms":[],"format":"float","value":0},{"iid":14,"type":"2F","perms":["pr","rw"],"format":"float","value":0}"#, type: "43"))
        #expect(lamp.map(\.code) == [.duplicateName, .invalidName, .invalidPermissions, .unknownPermission])
        #expect(lamp.map(\.iid) == [11, 11, 13, 14])
        // A missing perms is found while decoding, at the characteristic.
        let decoded = try database(service(#"{"iid":12,"type":"8","format":"int","value":0}"#, type: "43")).diagnostics
        #expect(decoded.contains { $0.code == .invalidPermissions && $0.iid == 12 && $0.severity == .error })
    }

    @Test func namesAreCheckedAsTheHomeAppAcceptsThem() {
        for accepted in ["Desk Lamp", "Kid's Room", "Kid’s Room", "Wi-Fi Router", "Café 2", "U&Dave", "Great! Action", "A", "Play (Yamaha)1"] {
            #expect(NameRule.problem(with: accepted) == nil, "\(accepted)")
        }
        #expect(NameRule.problem(with: "#Living Room*") == ##"starts with "#": a name starts and ends with a letter or digit"##)
        #expect(NameRule.problem(with: "Coffee ☕")?.contains("U+2615 HOT BEVERAGE") == true)
        #expect(NameRule.problem(with: "Lamp #2 A")?.hasPrefix(##"holds "#""##) == true)
        #expect(NameRule.problem(with: " Lamp") != nil && NameRule.problem(with: "") == "is empty")
    }

    @Test func elementCountsHaveHomeKitsLimits() throws {
        func lights(_ count: Int) -> String {
            (0 ..< count).map { index in
                #"{"iid":\#(100 + 2 * index),"type":"43","characteristics":[{"iid":\#(101 + 2 * index),"type":"25","perms":["pr"],"format":"bool","value":0}]}"#
            }.joined(separator: ",")
        }
        let accessories = (1 ... 151).map { #"{"aid":\#($0),"services":[\#(information())]}"# }.joined(separator: ",")
        let many = try issues("[" + accessories + "]")
        #expect(many.map(\.code) == [.tooManyAccessories])
        #expect(many.first?.aid == 151 && many.first?.path == "/150")
        let services = try issues(#"[{"aid":1,"services":[\#(information()),\#(lights(100))]}]"#)
        #expect(services.map(\.code) == [.tooManyServices])
        #expect(services.first?.iid == 298)
        let characteristics = (0 ..< 101).map { #"{"iid":\#(20 + $0),"type":"A8F798E0-4A40-11E6-BDF4-0800200C9A66","perms":["pr"],"format":"bool","value":0}"# }
        let custom = try issues(#"[{"aid":1,"services":[\#(information()),{"iid":8,"type":"E2D2A000-6B6E-4C1B-9B9E-68617073636F","characteristics":["#
            + characteristics.joined(separator: ",") + "]}]}]")
        #expect(custom.map(\.code) == [.tooManyCharacteristics])
        #expect(custom.first?.iid == 120)
    }

    @Test func realDatabasesShowTheirKnownFaults() throws {
        // A bridged shade with an empty serial number.
        let ryse = try realDatabase("ryse_smart_bridge").conformanceIssues()
        #expect(ryse.map(\.code) == [.serialNumberLength])
        #expect(ryse.first?.aid == 3)
        // A BLE alarm whose services share iids with characteristics: notes for its transport, and
        // nothing else once its dump is read as what it is (AccessoryDatabaseDumpTests).
        let netatmo = try AccessoryDatabaseDump(bytes: try Fixtures.realDatabase("netamo_smart_co_alarm"))
        let alarm = netatmo.database.conformanceIssues(transport: netatmo.origin.transport)
        #expect(alarm.map(\.code) == [.duplicateIID, .duplicateIID, .duplicateIID])
        #expect(alarm.allSatisfy { $0.severity == .note })
        // Vendor characteristics declared `int` holding 0xFFFFFFFF.
        let fan = try realDatabase("simpleconnect_fan").conformanceIssues()
        #expect(fan.filter { $0.code == .valueWrongFormat }.count == 22)
        #expect(fan.contains { $0.code == .incompleteAccessoryInformation && $0.message.contains("Firmware Revision") })
        // Types one digit off Apple's base are not Apple's: no Accessory Information.
        let haa = try realDatabase("haa_fan").conformanceIssues()
        #expect(haa.map(\.code) == [.missingAccessoryInformation, .missingAccessoryInformation])
    }
}
