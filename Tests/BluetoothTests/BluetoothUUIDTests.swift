import Testing
import WireParsing
@testable import Bluetooth

@Suite("Bluetooth UUIDs")
struct BluetoothUUIDTests {
    @Test("16-bit UUIDs stand for the Bluetooth base UUID")
    func shortForms() throws {
        let uuid = try BluetoothUUID(littleEndianBytes: [0x0A, 0x18])
        #expect(uuid.shortForm == 0x180A && uuid.description == "0x180A")
        #expect(uuid.value == 0x0000180A_0000_1000_8000_00805F9B34FB)
        #expect(try BluetoothUUID(littleEndianBytes: [0x0D, 0xF0, 0x01, 0x00]).description == "0x0001F00D")
    }

    @Test("A 128-bit HAP type (HomeKitADK HAP.h: bytes in reversed order) reads on Apple's base")
    func hapType() throws {
        // HAP Service Signature characteristic A5 as HomeKitADK writes it.
        let bytes = hex("91 52 76 bb 26 00 00 80 00 10 00 00 a5 00 00 00")
        let uuid = try BluetoothUUID(littleEndianBytes: bytes)
        #expect(uuid.hapShortForm == 0xA5 && uuid.shortForm == nil)
        #expect(uuid.description == "000000A5-0000-1000-8000-0026BB765291")
        #expect(uuid.littleEndianBytes == bytes)
    }

    @Test("Other lengths are malformed")
    func lengths() {
        #expect(throws: DecodeError(.malformed, layer: .att, offset: 0, expected: "")) {
            try BluetoothUUID(littleEndianBytes: [1, 2, 3])
        }
    }
}
