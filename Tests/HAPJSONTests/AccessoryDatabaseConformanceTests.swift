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
        #expect(partial.map(\.code) == Array(repeating: .missingRequiredCharacteristic, count: 5))
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
            + #"{"iid":8,"type":"43","characteristics":[{"iid":9,"type":"8","perms":["pr"],"format":"int","minValue":0,"maxValue":100,"value":150}]}]}]"#
        let found = try issues(text)
        #expect(found.map(\.code) == [.valueOutOfBounds])
        let finding = try #require(found.first)
        #expect(finding.path == "/0/services/1/characteristics/0/value")
        #expect(finding.message == "Brightness value 150 is above the declared maximum 100.0")
        #expect(Array(text.utf8)[finding.offset ..< finding.offset + 3] == Array("150".utf8)[...])
    }

    @Test func realDatabasesShowTheirKnownFaults() throws {
        // A bridged shade with an empty serial number.
        let ryse = try realDatabase("ryse_smart_bridge").conformanceIssues()
        #expect(ryse.map(\.code) == [.serialNumberLength])
        #expect(ryse.first?.aid == 3)
        // Services whose iids repeat characteristic iids.
        let netatmo = try realDatabase("netamo_smart_co_alarm").conformanceIssues()
        #expect(netatmo.map(\.code) == [.duplicateIID, .duplicateIID, .duplicateIID])
        #expect(netatmo.allSatisfy { $0.severity == .warning })
        // Vendor characteristics declared `int` holding 0xFFFFFFFF.
        let fan = try realDatabase("simpleconnect_fan").conformanceIssues()
        #expect(fan.filter { $0.code == .valueWrongFormat }.count == 22)
        #expect(fan.contains { $0.code == .missingRequiredCharacteristic && $0.message.contains("Firmware Revision") })
        // Types one digit off Apple's base are not Apple's: no Accessory Information.
        let haa = try realDatabase("haa_fan").conformanceIssues()
        #expect(haa.map(\.code) == [.missingAccessoryInformation, .missingAccessoryInformation])
    }
}
