import HAPCatalog
import HAPJSON
import Testing
@testable import BLETransport

@Suite("HAP-BLE characteristic values by format")
struct BLECharacteristicValueTests {
    func value(_ bytes: [UInt8], _ format: CharacteristicFormat?) -> CharacteristicValue {
        BLECharacteristicValue.interpret(bytes, as: format).value
    }

    @Test("Integers little-endian in the format's width, int signed 32-bit, float IEEE single, strings UTF-8")
    func formats() {
        #expect(value([1], .bool) == .bool(true))
        #expect(value([0x1E, 0, 0, 0], .uint32) == .unsignedInteger(30))
        #expect(value([0x34, 0x12], .uint16) == .unsignedInteger(0x1234))
        #expect(value([0xFF, 0xFF, 0xFF, 0xFF], .int) == .integer(-1))
        #expect(value([0, 0, 0x20, 0x41], .float) == .float(10))
        #expect(value(Array("Lamp".utf8), .string) == .string("Lamp"))
        #expect(value([1, 2], .tlv8) == .bytes([1, 2]))
        #expect(value([1, 2], nil) == .bytes([1, 2]))
    }

    @Test("A value of the wrong width stays bytes and says so")
    func wrongWidth() {
        let interpreted = BLECharacteristicValue.interpret([1, 2], as: .uint8)
        #expect(interpreted.value == .bytes([1, 2]) && !interpreted.issues.isEmpty)
        #expect(value([2], .bool) == .bytes([2]))
    }
}
