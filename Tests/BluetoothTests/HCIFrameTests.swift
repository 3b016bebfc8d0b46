import Testing
import WireParsing
@testable import Bluetooth

@Suite("HCI frames of the Bluetooth link types")
struct HCIFrameTests {
    @Test("LINKTYPE 201: direction 0 is host to controller, 1 controller to host (Bumble PcapSnooper)")
    func h4Direction() throws {
        #expect(try frame(BumbleVectors.resetCommand).0 == .packet(direction: .hostToController, indicator: .command, adapterIndex: nil))
        #expect(try frame(BumbleVectors.resetComplete).0 == .packet(direction: .controllerToHost, indicator: .event, adapterIndex: nil))
        #expect(try frame(BumbleVectors.readRequest).0 == .packet(direction: .hostToController, indicator: .aclData, adapterIndex: nil))
        #expect(try frame(BumbleVectors.resetCommand).1 == 5)
    }

    @Test("LINKTYPE 254: adapter index and opcode, big-endian; HCI opcodes give type and direction")
    func linuxMonitor() {
        let event = decode(hex("0001 0003 0e04 01030c00"), layer: .bluetoothLink) { (cursor) throws(DecodeError) in
            try HCIFrame(parsing: &cursor, linkType: .linuxMonitor)
        }
        #expect(event.value == .packet(direction: .controllerToHost, indicator: .event, adapterIndex: 1))
        let aclSent = decode(hex("0000 0004"), layer: .bluetoothLink) { (cursor) throws(DecodeError) in
            try HCIFrame(parsing: &cursor, linkType: .linuxMonitor)
        }
        #expect(aclSent.value == .packet(direction: .hostToController, indicator: .aclData, adapterIndex: 0))
        let note = decode(hex("ffff 000c 48656c6c6f00"), layer: .bluetoothLink) { (cursor) throws(DecodeError) in
            try HCIFrame(parsing: &cursor, linkType: .linuxMonitor)
        }
        #expect(note.value == .monitorRecord(adapterIndex: 0xFFFF, opcode: .systemNote))
        #expect(LinuxMonitorOpcode.isoReceived.hciPacket?.indicator == .isoData)
        #expect(LinuxMonitorOpcode(rawValue: 99).description == "monitor opcode 99")
    }

    @Test("Every prefix of a pseudo-header and indicator is truncated in the bluetooth-link layer")
    func dripFed() {
        for prefix in prefixes(of: Array(BumbleVectors.resetCommand.prefix(5))) {
            let result = decode(prefix, layer: .bluetoothLink) { (cursor) throws(DecodeError) in
                try HCIFrame(parsing: &cursor, linkType: .h4WithPseudoHeader)
            }
            #expect(result.error == DecodeError(.truncated, layer: .bluetoothLink, offset: 0, expected: ""))
            #expect(result.error?.offset == min(prefix.count / 4 * 4, 4))
        }
    }

    @Test("Indicators name the five HCI packet types and keep unknown ones")
    func indicators() {
        #expect([1, 2, 3, 4, 5].map { HCIPacketIndicator(rawValue: $0).isKnown } == [true, true, true, true, true])
        #expect(HCIPacketIndicator(rawValue: 0xFF).description == "packet type 0xff")
        #expect(HCIPacketIndicator.isoData.description == "ISO data")
    }
}
