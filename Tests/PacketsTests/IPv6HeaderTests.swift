import Packets
import Testing
import WireParsing

@Suite("IPv6 and its extension headers")
struct IPv6HeaderTests {
    let decoder = PacketDecoder()
    let udp = PacketBuilder.udp(sourcePort: 5_353, destinationPort: 5_353, payload: [0xAB, 0xCD])

    @Test("Hop-by-hop, routing and destination options headers are walked to the UDP header")
    func extensionChain() throws {
        let payload = PacketBuilder.extensionHeader(nextHeader: 43)
            + PacketBuilder.extensionHeader(nextHeader: 60, optionBytes: 14)
            + PacketBuilder.extensionHeader(nextHeader: 17) + udp
        let packet = PacketBuilder.ipv6(nextHeader: 0, payload: payload)
        #expect(try decoder.summary(of: packet, linkType: .raw)
            == .udp(source: "[fe80::1]:5353", destination: "[fe80::2]:5353", payload: [0xAB, 0xCD], missing: 0))
    }

    @Test("An authentication header is skipped by its own length rule, (length + 2) × 4 bytes")
    func authenticationHeader() throws {
        // RFC 4302 §2.2: length 4 → 24 bytes: next header, length, reserved, SPI, sequence, 12-byte ICV.
        let ah: [UInt8] = [6, 4, 0, 0] + [0, 0, 0x10, 0x01] + [0, 0, 0, 1] + [UInt8](repeating: 0xEE, count: 12)
        let packet = PacketBuilder.ipv6(nextHeader: 51, payload: ah + PacketBuilder.tcp(payload: [7]))
        #expect(try decoder.summary(of: packet, linkType: .raw).payload == [7])
    }

    @Test("ESP ends the walk: its payload is encrypted")
    func encapsulatingSecurityPayload() throws {
        let packet = PacketBuilder.ipv6(nextHeader: 60, payload: PacketBuilder.extensionHeader(nextHeader: 50) + [0, 0, 1, 0, 0, 0, 0, 1])
        #expect(try decoder.summary(of: packet, linkType: .raw) == .other(source: "fe80::1", destination: "fe80::2", .encapsulatingSecurityPayload))
    }

    @Test("No Next Header ends the walk")
    func noNextHeader() throws {
        let packet = PacketBuilder.ipv6(nextHeader: 59, payload: [])
        #expect(try decoder.summary(of: packet, linkType: .raw) == .other(source: "fe80::1", destination: "fe80::2", .noNextHeader))
    }

    @Test("ICMPv6 is reported as another IP protocol")
    func icmpv6() throws {
        let packet = PacketBuilder.ipv6(nextHeader: 58, payload: [128, 0, 0, 0, 0, 1, 0, 1])
        #expect(try decoder.summary(of: packet, linkType: .raw) == .other(source: "fe80::1", destination: "fe80::2", .icmpv6))
    }

    @Test("Hop-by-hop options anywhere but first are malformed")
    func hopByHopNotFirst() throws {
        let payload = PacketBuilder.extensionHeader(nextHeader: 0) + PacketBuilder.extensionHeader(nextHeader: 17) + udp
        let error = try #require(decoder.error(decoding: PacketBuilder.ipv6(nextHeader: 60, payload: payload), linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv6, offset: 0, expected: ""))
        #expect(error.offset == 48)
    }

    @Test("An extension header longer than the payload length is malformed")
    func extensionPastPayloadLength() throws {
        let header: [UInt8] = [17, 3, 1, 4, 0, 0, 0, 0]  // claims 32 bytes
        let error = try #require(decoder.error(decoding: PacketBuilder.ipv6(nextHeader: 60, payload: header + udp), linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv6, offset: 0, expected: ""))
        #expect(error.offset == 41)
    }

    @Test("An extension header cut by the snap length is truncated")
    func extensionCut() throws {
        let packet = PacketBuilder.ipv6(nextHeader: 60, payload: PacketBuilder.extensionHeader(nextHeader: 17, optionBytes: 14) + udp)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw, capturedLength: 50))
        #expect(error == DecodeError(.truncated, layer: .ipv6, offset: 0, expected: ""))
    }

    @Test("More extension headers than the configured limit is a limit error")
    func extensionLimit() throws {
        let strict = PacketDecoder(configuration: .init(maximumIPv6ExtensionHeaders: 2))
        let two = PacketBuilder.extensionHeader(nextHeader: 60) + PacketBuilder.extensionHeader(nextHeader: 17) + udp
        #expect(try strict.summary(of: PacketBuilder.ipv6(nextHeader: 60, payload: two), linkType: .raw).payload == [0xAB, 0xCD])
        let three = PacketBuilder.extensionHeader(nextHeader: 60) + two
        let error = try #require(strict.error(decoding: PacketBuilder.ipv6(nextHeader: 60, payload: three), linkType: .raw))
        #expect(error == DecodeError(.limitExceeded, layer: .ipv6, offset: 0, expected: ""))
    }

    @Test("A jumbogram's zero payload length is unsupported")
    func jumbogram() throws {
        let jumbo: [UInt8] = [17, 0, 0xC2, 4, 0, 1, 0, 0]
        let error = try #require(decoder.error(decoding: PacketBuilder.ipv6(nextHeader: 0, payload: jumbo + udp, payloadLength: 0), linkType: .raw))
        #expect(error == DecodeError(.unsupported, layer: .ipv6, offset: 0, expected: ""))
    }

    @Test("A payload length past a packet captured whole is malformed; one cut by the snap length is not")
    func payloadLengthPastPacket() throws {
        let packet = PacketBuilder.ipv6(nextHeader: 17, payload: udp, payloadLength: 200)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv6, offset: 0, expected: ""))
        #expect(error.offset == 4)
        let summary = try decoder.summary(of: Fixtures.mdnsQueryIPv6, linkType: .raw, capturedLength: 60)
        #expect(summary.missing == 21)
    }

    @Test("A header cut by the snap length is truncated in the ipv6 layer")
    func headerCut() throws {
        let error = try #require(decoder.error(decoding: Fixtures.mdnsQueryIPv6, linkType: .raw, capturedLength: 30))
        #expect(error == DecodeError(.truncated, layer: .ipv6, offset: 0, expected: ""))
        #expect(error.offset == 0)  // the header that did not fit starts there
    }
}
