import Packets
import Testing
import WireParsing

@Suite("UDP")
struct UDPHeaderTests {
    let decoder = PacketDecoder()

    @Test("An mDNS query over IPv4 yields its DNS message")
    func mdnsQuery() throws {
        #expect(try decoder.summary(of: Fixtures.mdnsQuery, linkType: .raw)
            == .udp(source: "127.0.0.1:46186", destination: "127.0.0.1:5353", payload: Fixtures.mdnsQueryPayload, missing: 0))
    }

    @Test("A UDP length shorter than the IP payload ends the datagram there")
    func shorterUDPLength() throws {
        let packet = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.udp(payload: [1, 2, 3, 4, 5], length: 10))
        #expect(try decoder.summary(of: packet, linkType: .raw).payload == [1, 2])
    }

    @Test("A UDP length below 8 is malformed at the length field", arguments: [0, 7])
    func lengthBelowHeader(length: Int) throws {
        let packet = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.udp(payload: [1, 2], length: length))
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .udp, offset: 0, expected: ""))
        #expect(error.offset == 24)
    }

    @Test("A UDP length past the IP payload is malformed")
    func lengthPastIPPayload() throws {
        let packet = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.udp(payload: [1, 2], length: 11))
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .udp, offset: 0, expected: ""))
    }

    @Test("A datagram cut by the snap length counts the missing bytes")
    func payloadCut() throws {
        let summary = try decoder.summary(of: Fixtures.mdnsQuery, linkType: .raw, capturedLength: 28 + 12)
        #expect(summary.payload == Array(Fixtures.mdnsQueryPayload.prefix(12)))
        #expect(summary.missing == 21)
    }

    @Test("A header cut by the snap length is truncated in the udp layer")
    func headerCut() throws {
        let error = try #require(decoder.error(decoding: Fixtures.mdnsQuery, linkType: .raw, capturedLength: 25))
        #expect(error == DecodeError(.truncated, layer: .udp, offset: 0, expected: ""))
    }
}
