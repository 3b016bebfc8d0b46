import Testing
import WireParsing
@testable import Bluetooth

@Suite("HCI commands")
struct HCICommandTests {
    func command(_ bytes: [UInt8]) -> Result<HCICommand, DecodeError> {
        decode(bytes, layer: .hci) { (cursor) throws(DecodeError) in try HCICommand(parsing: &cursor) }
    }

    @Test("Disconnect from Bumble: opcode 0x0406 (OGF 1, OCF 6), handle 1, reason 0x13")
    func disconnect() throws {
        let decoded = try command(hciPacket(BumbleVectors.disconnectCommand)).get()
        #expect(decoded.opcode == .disconnect)
        #expect(decoded.opcode.group == 0x01 && decoded.opcode.command == 0x006)
        #expect(decoded.content == .disconnect(handle: 1, reason: .remoteUserTerminatedConnection))
        #expect(decoded.opcode.description == "Disconnect (0x0406)")
    }

    @Test("Reset has no parameters; an unnamed opcode reads as its group and command")
    func reset() throws {
        let decoded = try command(hciPacket(BumbleVectors.resetCommand)).get()
        #expect(decoded.opcode == .reset && decoded.parameters.isEmpty && decoded.content == .other)
        #expect(HCIOpcode(rawValue: 0x0C45).description == "opcode 0x0c45 (OGF 0x3, OCF 0x45)")
    }

    @Test("LE Set Advertising Data: the significant bytes of the 31-byte field are AD structures")
    func advertisingData() throws {
        let data = hex("020106 05094c616d70")
        let parameters = [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count)
        let decoded = try command([0x08, 0x20, UInt8(parameters.count)] + parameters).get()
        guard case .advertisingData(let advertising) = decoded.content else {
            Issue.record("not advertising data: \(decoded.content)")
            return
        }
        #expect(advertising.flags == 0x06)
        #expect(advertising.localName?.name == "Lamp")
        #expect(advertising.problem == nil)
    }

    @Test("A significant length above 31 is malformed at the length byte")
    func advertisingDataTooLong() {
        let error = command([0x08, 0x20, 0x20, 0x20] + [UInt8](repeating: 0, count: 31)).error
        #expect(error == DecodeError(.malformed, layer: .hci, offset: 0, expected: ""))
        #expect(error?.offset == 3)
    }

    @Test("Every prefix of a command is truncated; bytes past the parameters are malformed")
    func dripFedAndTrailing() {
        let packet = hciPacket(BumbleVectors.disconnectCommand)
        for prefix in prefixes(of: packet) {
            #expect(command(prefix).error?.code == .truncated)
        }
        #expect(command(packet + [0]).error == DecodeError(.malformed, layer: .hci, offset: 0, expected: ""))
    }
}
