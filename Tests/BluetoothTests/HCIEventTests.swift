import Testing
import WireParsing
@testable import Bluetooth

@Suite("HCI events")
struct HCIEventTests {
    func event(_ bytes: [UInt8]) -> Result<HCIEvent, DecodeError> {
        decode(bytes, layer: .hci) { (cursor) throws(DecodeError) in try HCIEvent(parsing: &cursor) }
    }

    @Test("Command Complete for Reset (Bumble): one command credit, status success")
    func commandComplete() throws {
        let decoded = try event(hciPacket(BumbleVectors.resetComplete)).get()
        guard case .commandComplete(let complete) = decoded.content else {
            Issue.record("\(decoded.content)")
            return
        }
        #expect(complete.opcode == .reset && complete.allowedCommandPackets == 1 && complete.status == .success)
        #expect(CommandComplete(allowedCommandPackets: 1, opcode: HCIOpcode(rawValue: 0), returnParameters: []).status == nil)
    }

    @Test("Command Status for Disconnect and Disconnection Complete (Bumble)")
    func disconnection() throws {
        #expect(try event(hciPacket(BumbleVectors.disconnectStatus)).get().content
            == .commandStatus(CommandStatus(status: .success, allowedCommandPackets: 1, opcode: .disconnect)))
        #expect(try event(hciPacket(BumbleVectors.disconnectionComplete)).get().content
            == .disconnectionComplete(DisconnectionComplete(status: .success, handle: 1, reason: .remoteUserTerminatedConnection)))
    }

    @Test("Number Of Completed Packets: handle and count per entry (Bumble), and two entries")
    func completedPackets() throws {
        #expect(try event(hciPacket(BumbleVectors.completedPackets)).get().content
            == .numberOfCompletedPackets([CompletedPackets(handle: 1, count: 1)]))
        #expect(try event(hex("13 09 02 4000 0300 4100 0100")).get().content
            == .numberOfCompletedPackets([CompletedPackets(handle: 0x40, count: 3), CompletedPackets(handle: 0x41, count: 1)]))
    }

    @Test("A handle count that does not match the bytes is malformed at the count")
    func completedPacketsCountMismatch() {
        let error = event(hex("13 05 02 0100 0100")).error
        #expect(error == DecodeError(.malformed, layer: .hci, offset: 0, expected: ""))
        #expect(error?.offset == 2)
    }

    @Test("Encryption Change v1 and v2 (with the key size)")
    func encryptionChange() throws {
        #expect(try event(hex("08 04 00 4000 01")).get().content
            == .encryptionChange(EncryptionChange(status: .success, handle: 0x40, encryptionEnabled: 1)))
        let v2 = try event(hex("59 05 00 4000 01 10")).get()
        #expect(v2.content == .encryptionChange(EncryptionChange(status: .success, handle: 0x40, encryptionEnabled: 1, keySize: 16)))
        if case .encryptionChange(let change) = v2.content { #expect(change.isEncrypted) }
    }

    @Test("An unknown event is kept with its code and parameters")
    func unknownEvent() throws {
        let decoded = try event(hex("ff 03 010203")).get()
        #expect(decoded.code == .vendorSpecific && decoded.content == .other && decoded.parameters == [1, 2, 3])
        #expect(HCIEventCode(rawValue: 0x77).description == "event 0x77")
    }

    @Test("An event whose parameter length is too short for it is malformed, not truncated")
    func shortParameters() {
        let error = event(hex("05 02 00 01")).error
        #expect(error == DecodeError(.malformed, layer: .hci, offset: 0, expected: ""))
    }

    @Test("Every prefix of an event is truncated; trailing bytes are malformed")
    func dripFed() {
        let packet = hciPacket(BumbleVectors.leConnectionComplete)
        for prefix in prefixes(of: packet) {
            #expect(event(prefix).error == DecodeError(.truncated, layer: .hci, offset: 0, expected: ""))
        }
        #expect(event(packet + [0]).error?.code == .malformed)
    }
}
