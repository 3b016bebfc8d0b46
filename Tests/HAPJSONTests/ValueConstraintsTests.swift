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

    @Test func theCatalogueFillsInWhatTheDatabaseLeavesOutAsWarnings() throws {
        // Current Door State: uint8, 0…4 in the catalogue.
        let door = try characteristic(#"{"iid":2,"type":"E","perms":["pr","ev"],"format":"uint8","value":7}"#)
        #expect(door.constraints.maximumValue == .init(4, .catalog))
        #expect(door.valueIssues == [.aboveMaximum(maximum: 4, .catalog), .notInValidValues(.catalog)])
        #expect(door.valueIssues.allSatisfy { $0.severity == .warning })
        // Current Media State lists 0, 1, 2, 4, 5: 3 is missing.
        let media = try characteristic(#"{"iid":2,"type":"E0","perms":["pr"],"format":"uint8","value":3}"#)
        #expect(media.valueIssues == [.notInValidValues(.catalog)])
    }

    /// Issue 23, point 1: a device that declares its own constraints is checked against those alone.
    @Test func theDevicesOwnConstraintsAreTheOnesChecked() throws {
        // The catalogue's Current Door State is 0…4 with valid values; this device declares 0…10.
        let wide = try characteristic(#"{"iid":2,"type":"E","perms":["pr"],"format":"uint8","maxValue":10,"value":7}"#)
        #expect(wide.valueIssues.isEmpty)
        #expect(wide.constraints.validValues == nil && wide.constraints.maximumValue == .init(10, .declared))
        #expect(wide.interpret(.number(JSONNumber(11))).issues == [.aboveMaximum(maximum: 10, .declared)])
        // Color Temperature: ADK says 50…400, the others 140…500; a device declaring 153…454 is judged by that.
        let warm = try characteristic(#"{"iid":2,"type":"CE","perms":["pr","pw"],"format":"uint32","minValue":153,"maxValue":454,"value":454}"#)
        #expect(warm.valueIssues.isEmpty)
        // A step alone is also the device's: the catalogue's range no longer applies.
        let stepped = try characteristic(#"{"iid":2,"type":"11","perms":["pr"],"format":"float","minStep":0.5,"value":120}"#)
        #expect(stepped.valueIssues.isEmpty)
    }

    /// Issue 23, point 4: ADK's tolerance of a tenth of a step, and vendors' read-only readings.
    @Test func floatsWithinATenthOfAStepAreOnTheStep() throws {
        let humidity = try characteristic(#"{"iid":2,"type":"10","perms":["pr","ev"],"format":"float","minValue":0,"maxValue":100,"minStep":1,"value":60.099998}"#)
        #expect(humidity.valueIssues.isEmpty)
        #expect(humidity.interpret(.number(JSONNumber(59.9)!)).issues.isEmpty)
        #expect(humidity.interpret(.number(JSONNumber(60.15)!)).issues == [.offStep(step: 1, base: 0, .declared)])
        // Integers keep exact steps, as ADK's IS_VALUE_IN_RANGE does.
        let brightness = try characteristic(#"{"iid":2,"type":"8","perms":["pr","pw"],"format":"int","minValue":0,"maxValue":100,"minStep":5,"value":51}"#)
        #expect(brightness.valueIssues == [.offStep(step: 5, base: 0, .declared)])
        // A vendor's read-only reading off its own step is a note; a writable one is not.
        let amps = try characteristic(#"{"iid":2,"type":"00000009-0000-1000-8000-001D4B474349","perms":["pr","ev"],"format":"float","minValue":0,"maxValue":20,"minStep":0.1,"value":0.03}"#)
        #expect(amps.valueIssues == [.offStep(step: 0.1, base: 0, .vendorReadOnly)])
        #expect(amps.valueIssues.allSatisfy { $0.severity == .note })
        let setting = try characteristic(#"{"iid":2,"type":"00000009-0000-1000-8000-001D4B474349","perms":["pr","pw"],"format":"float","minValue":0,"maxValue":20,"minStep":0.1,"value":0.03}"#)
        #expect(setting.valueIssues.map(\.severity) == [.warning])
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
