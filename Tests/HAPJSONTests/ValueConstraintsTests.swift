import HAPCatalog
import Testing
@testable import HAPJSON

@Suite struct ValueConstraintsTests {
    private func characteristic(_ json: String) throws -> HAPCharacteristic {
        let database = try database(#"[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":["# + json + "]}]}]")
        return try #require(database.accessories.first?.services.first?.characteristics.first)
    }

    @Test func declaredBoundsAreErrorsWithAFloatTolerance() throws {
        let lux = try characteristic(#"{"iid":2,"type":"6B","perms":["pr"],"format":"float","minValue":0.0001,"maxValue":100000,"value":1}"#)
        // HAP quirk: a Float minimum widened to Double lies a hair below the declared one.
        #expect(lux.interpret(.number(JSONNumber(9.999999747e-05)!)).issues.isEmpty)
        #expect(lux.interpret(.number(JSONNumber(0.00009)!)).issues == [.belowMinimum(minimum: 0.0001, .declared)])
        #expect(lux.interpret(.number(JSONNumber(100000.5)!)).issues == [.aboveMaximum(maximum: 100000, .declared)])
        #expect(ValueIssue.aboveMaximum(maximum: 1, .declared).severity == .error)
    }

    @Test func integerBoundsAreExact() throws {
        let position = try characteristic(#"{"iid":2,"type":"7C","perms":["pr","pw"],"format":"uint8","minValue":0,"maxValue":100,"minStep":1,"value":100}"#)
        #expect(position.valueIssues.isEmpty)
        #expect(position.interpret(.number(JSONNumber(101))).issues == [.aboveMaximum(maximum: 100, .declared)])
    }

    @Test func stepsCountFromTheMinimum() throws {
        let temperature = try characteristic(#"{"iid":2,"type":"35","perms":["pr"],"format":"float","minValue":10,"maxValue":38,"minStep":0.5,"value":21.5}"#)
        #expect(temperature.valueIssues.isEmpty)
        #expect(temperature.interpret(.number(JSONNumber(21.25)!)).issues == [.offStep(step: 0.5, base: 10, .declared)])
        // A Float's rounding error is not a step error.
        #expect(temperature.interpret(.number(JSONNumber(Double(Float(21.5)))!)).issues.isEmpty)
        #expect(ValueIssue.offStep(step: 1, base: 0, .declared).severity == .warning)

        let odd = try characteristic(#"{"iid":2,"type":"CE","perms":["pr"],"format":"uint32","minValue":1,"maxValue":9,"minStep":2,"value":4}"#)
        #expect(odd.valueIssues == [.offStep(step: 2, base: 1, .declared)])
    }

    @Test func validValuesAndRangesAllowTheirUnion() throws {
        let state = try characteristic(#"{"iid":2,"type":"E0","perms":["pr"],"format":"uint8","valid-values":[0,1],"valid-values-range":[4,5],"value":4}"#)
        #expect(state.valueIssues.isEmpty)
        #expect(state.interpret(.number(JSONNumber(1))).issues.isEmpty)
        #expect(state.interpret(.number(JSONNumber(3))).issues == [.notInValidValues(.declared)])
        let ranges = try characteristic(#"{"iid":2,"type":"E0","perms":["pr"],"format":"uint8","valid-values-range":[[0,1],[4,5]],"value":2}"#)
        #expect(ranges.validValueRanges == [0 ... 1, 4 ... 5])
        #expect(ranges.valueIssues == [.notInValidValues(.declared)])
    }

    @Test func theCatalogueFillsInWhatTheDatabaseLeftOutAsWarnings() throws {
        // Current Door State: uint8, 0…4 in the catalogue.
        let door = try characteristic(#"{"iid":2,"type":"E","perms":["pr","ev"],"format":"uint8","value":7}"#)
        #expect(door.constraints.maximumValue == .init(4, .catalog))
        #expect(door.valueIssues == [.aboveMaximum(maximum: 4, .catalog), .notInValidValues(.catalog)])
        #expect(door.valueIssues.allSatisfy { $0.severity == .warning })
        // Current Media State lists 0, 1, 2, 4, 5: 3 is missing.
        let media = try characteristic(#"{"iid":2,"type":"E0","perms":["pr"],"format":"uint8","value":3}"#)
        #expect(media.valueIssues == [.notInValidValues(.catalog)])
        // Declared metadata wins over the catalogue.
        let wide = try characteristic(#"{"iid":2,"type":"E","perms":["pr"],"format":"uint8","maxValue":10,"value":7}"#)
        #expect(wide.valueIssues == [.notInValidValues(.catalog)])
    }

    @Test func stringsAndDataHaveLengthLimitsWithHAPDefaults() throws {
        let long = String(repeating: "é", count: 33)
        let name = try characteristic(#"{"iid":2,"type":"23","perms":["pr"],"format":"string","value":"\#(long)"}"#)
        #expect(name.valueIssues == [.tooLong(length: 66, maximum: 64, .catalog)])
        let vendor = try characteristic(#"{"iid":2,"type":"A8F798E0-4A40-11E6-BDF4-0800200C9A66","perms":["pr"],"format":"string","value":"\#(long)"}"#)
        #expect(vendor.valueIssues == [.tooLong(length: 66, maximum: 64, .protocolDefault)])
        let declared = try characteristic(#"{"iid":2,"type":"23","perms":["pr"],"format":"string","maxLen":70,"value":"\#(long)"}"#)
        #expect(declared.valueIssues.isEmpty)
        let data = try characteristic(#"{"iid":2,"type":"A5","perms":["pr"],"format":"data","maxDataLen":2,"value":"AQID"}"#)
        #expect(data.valueIssues == [.tooLong(length: 3, maximum: 2, .declared)])
    }

    @Test func issuesHaveStableCodes() {
        let codes = [
            ValueIssue.wrongFormat(expected: .bool, found: "string"), .outsideFormatRange(.uint8), .integerWithFraction,
            .invalidBase64, .belowMinimum(minimum: 0, .declared), .aboveMaximum(maximum: 0, .catalog),
            .offStep(step: 1, base: 0, .declared), .notInValidValues(.declared), .tooLong(length: 2, maximum: 1, .declared),
        ].map(\.code.rawValue)
        #expect(codes == [
            "value-wrong-format", "value-wrong-format", "value-integer-with-fraction", "value-invalid-base64",
            "value-out-of-bounds", "value-out-of-bounds", "value-off-step", "value-not-in-valid-values", "value-too-long",
        ])
    }
}
