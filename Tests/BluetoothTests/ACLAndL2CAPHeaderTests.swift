import Testing
import WireParsing
@testable import Bluetooth

@Suite("ACL data and L2CAP basic headers")
struct ACLAndL2CAPHeaderTests {
    func acl(_ bytes: [UInt8]) -> Result<ACLDataHeader, DecodeError> {
        decode(bytes, layer: .hci) { (cursor) throws(DecodeError) in try ACLDataHeader(parsing: &cursor) }
    }

    func l2cap(_ bytes: [UInt8]) -> Result<L2CAPBasicHeader, DecodeError> {
        decode(bytes, layer: .l2cap) { (cursor) throws(DecodeError) in try L2CAPBasicHeader(parsing: &cursor) }
    }

    @Test("The host's start flag is 0b00, the controller's 0b10 (Bumble); both are starts")
    func packetBoundaryFlags() throws {
        let sent = try acl(hciPacket(BumbleVectors.readRequest)).get()
        #expect(sent.handle == 1 && sent.packetBoundary == .firstNonFlushable && sent.dataLength == 7 && sent.packetBoundary.isStart)
        let received = try acl(hciPacket(BumbleVectors.readResponse)).get()
        #expect(received.handle == 1 && received.packetBoundary == .firstFlushable && received.broadcastFlag == 0)
        #expect(try acl(hex("4010 0100 ff")).get().packetBoundary == .continuation)
    }

    @Test("An ACL length past the packet is truncated, short of it malformed")
    func aclLengths() {
        #expect(acl(hex("0100 0500 0102")).error == DecodeError(.truncated, layer: .hci, offset: 0, expected: ""))
        let short = acl(hex("0100 0100 0102")).error
        #expect(short == DecodeError(.malformed, layer: .hci, offset: 0, expected: ""))
        #expect(short?.offset == 2)
        for prefix in prefixes(of: hciPacket(BumbleVectors.readRequest)) {
            #expect(acl(prefix).error?.code == .truncated)
        }
    }

    @Test("L2CAP: the ATT channel of a Bumble Read Request; named fixed channels")
    func l2capHeader() throws {
        let frame = Array(hciPacket(BumbleVectors.readRequest).dropFirst(4))
        let header = try l2cap(frame).get()
        #expect(header.channel == .attribute && header.payloadLength == 3)
        #expect(L2CAPChannel.leSignaling.description == "LE signalling" && L2CAPChannel(rawValue: 0x0040).isDynamic)
        for prefix in prefixes(of: frame) {
            #expect(l2cap(prefix).error?.code == .truncated)
        }
        #expect(l2cap(frame + [0]).error?.code == .malformed)
    }
}

@Suite("SCO and ISO data headers")
struct IsochronousDataHeaderTests {
    @Test("SCO: handle, packet status, one-byte length")
    func sco() throws {
        let header = try decode(hex("0130 02 aabb"), layer: .hci) { (cursor) throws(DecodeError) in try SynchronousDataHeader(parsing: &cursor) }.get()
        #expect(header.handle == 0x001 && header.packetStatus == 3 && header.dataLength == 2)
        #expect(decode(hex("0100 03 aabb"), layer: .hci) { (cursor) throws(DecodeError) in try SynchronousDataHeader(parsing: &cursor) }.error?.code == .truncated)
    }

    @Test("ISO: handle, boundary and timestamp flags, 14-bit length")
    func iso() throws {
        let header = try decode(hex("0260 0300 010203"), layer: .hci) { (cursor) throws(DecodeError) in try ISODataHeader(parsing: &cursor) }.get()
        #expect(header.handle == 0x002 && header.packetBoundary == 2 && header.hasTimestamp && header.dataLength == 3)
        #expect(decode(hex("0260 0100 0102"), layer: .hci) { (cursor) throws(DecodeError) in try ISODataHeader(parsing: &cursor) }.error?.code == .malformed)
    }
}
