import HAPCatalog
import Testing
@testable import HAPJSON

private func decode(_ json: String, as format: CharacteristicFormat?) throws -> InterpretedValue {
    InterpretedValue(decoding: try #require(parseJSON(json).document).root, as: format)
}

@Suite struct CharacteristicValueTests {
    @Test func boolsArriveAsLiteralsOrAsOneAndZero() throws {
        #expect(try decode("true", as: .bool) == InterpretedValue(value: .bool(true)))
        #expect(try decode("0", as: .bool) == InterpretedValue(value: .bool(false)))
        #expect(try decode("1", as: .bool) == InterpretedValue(value: .bool(true)))
        #expect(try decode("1.0", as: .bool) == InterpretedValue(value: .bool(true), issues: [.integerWithFraction]))
        let two = try decode("2", as: .bool)
        #expect(two.value == .untyped(.number(JSONNumber(2))))
        #expect(two.issues == [.wrongFormat(expected: .bool, found: "number")])
        #expect(try decode(#""true""#, as: .bool).issues == [.wrongFormat(expected: .bool, found: "string")])
    }

    @Test func integersMayArriveWithAFractionOrExponentWhenWhole() throws {
        #expect(try decode("50", as: .uint8) == InterpretedValue(value: .unsignedInteger(50)))
        #expect(try decode("50.0", as: .uint8) == InterpretedValue(value: .unsignedInteger(50), issues: [.integerWithFraction]))
        #expect(try decode("5e1", as: .int) == InterpretedValue(value: .integer(50), issues: [.integerWithFraction]))
        #expect(try decode("-90", as: .int) == InterpretedValue(value: .integer(-90)))
        #expect(try decode("18446744073709551615", as: .uint64) == InterpretedValue(value: .unsignedInteger(.max)))
        let fraction = try decode("50.5", as: .uint8)
        #expect(fraction.value == .float(50.5))
        #expect(fraction.issues == [.wrongFormat(expected: .uint8, found: "fractional number")])
    }

    @Test func integersOutsideTheirFormatAreKeptAndFlagged() throws {
        #expect(try decode("256", as: .uint8) == InterpretedValue(value: .unsignedInteger(256), issues: [.outsideFormatRange(.uint8)]))
        #expect(try decode("-1", as: .uint16) == InterpretedValue(value: .integer(-1), issues: [.outsideFormatRange(.uint16)]))
        #expect(try decode("4294967295", as: .int) == InterpretedValue(value: .integer(4_294_967_295), issues: [.outsideFormatRange(.int)]))
        #expect(try decode("18446744073709551615", as: .uint32).issues == [.outsideFormatRange(.uint32)])
    }

    @Test func floatsStringsAndBinaryValuesDecode() throws {
        #expect(try decode("21", as: .float) == InterpretedValue(value: .float(21)))
        #expect(try decode("9.999999747e-05", as: .float) == InterpretedValue(value: .float(9.999999747e-05)))
        #expect(try decode(#""Lamp""#, as: .string) == InterpretedValue(value: .string("Lamp")))
        #expect(try decode(#""AQIDBA==""#, as: .tlv8) == InterpretedValue(value: .bytes([1, 2, 3, 4])))
        #expect(try decode(#""""#, as: .data) == InterpretedValue(value: .bytes([])))
        let hex = try decode(#""0xDEAD""#, as: .data)
        #expect(hex.issues == [.invalidBase64])
        #expect(hex.value == .untyped(.string("0xDEAD")))
        #expect(try decode("12", as: .string).issues == [.wrongFormat(expected: .string, found: "number")])
    }

    @Test func nullIsLegalForEveryFormatAndAnUnknownFormatLeavesValuesUntyped() throws {
        for format in CharacteristicFormat.allCases {
            #expect(try decode("null", as: format) == InterpretedValue(value: .null))
        }
        #expect(try decode("[1]", as: nil) == InterpretedValue(value: .untyped(.array([.number(JSONNumber(1))]))))
    }

    @Test func typedValuesWriteBackAsHAPJSON() {
        #expect(CharacteristicValue.bytes([1, 2, 3, 4]).jsonValue == .string("AQIDBA=="))
        #expect(CharacteristicValue.unsignedInteger(7).jsonValue.description == "7")
        #expect(CharacteristicValue.float(.nan).jsonValue == .null)
        #expect(CharacteristicValue.string("a\"b").description == #""a\"b""#)
    }
}
