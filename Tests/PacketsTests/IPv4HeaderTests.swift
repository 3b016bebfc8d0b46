import Packets
import Testing
import WireParsing

@Suite("IPv4")
struct IPv4HeaderTests {
    let decoder = PacketDecoder()

    @Test("Options covered by the header length are skipped")
    func optionsAreSkipped() throws {
        let routerAlert: [UInt8] = [0x94, 0x04, 0x00, 0x00]
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(payload: [1, 2, 3]), options: routerAlert)
        let summary = try decoder.summary(of: packet, linkType: .raw)
        #expect(summary == .tcp(
            source: "192.168.1.10:49152", destination: "192.168.1.20:51826", sequence: 1_000, acknowledgment: 2_000,
            flags: [.ack, .psh], window: 4_096, payload: [1, 2, 3], missing: 0))
    }

    @Test("The longest header, 60 bytes with 40 bytes of options, is accepted")
    func longestHeader() throws {
        let options = [UInt8](repeating: 0x01, count: 40)  // NOP options
        let packet = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.udp(payload: [9]), options: options)
        #expect(try decoder.summary(of: packet, linkType: .raw).payload == [9])
    }

    @Test("A header length below 20 bytes is malformed at the version byte", arguments: [0, 4, 16])
    func headerLengthBelowMinimum(headerLength: Int) throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(), headerLength: headerLength)
        let error = try #require(decoder.error(decoding: Fixtures.ethernet(0x0800) + packet, linkType: .ethernet))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 14)
    }

    @Test("A version other than 4 after an IPv4 EtherType is malformed")
    func wrongVersion() throws {
        let error = try #require(decoder.error(decoding: Fixtures.ethernet(0x0800) + Fixtures.mdnsQueryIPv6, linkType: .ethernet))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 14)
    }

    @Test("A total length smaller than the header is malformed at the total length")
    func totalLengthBelowHeader() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(), options: [1, 1, 1, 1], totalLength: 20)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 2)
    }

    @Test("A header length beyond the total length is malformed, not truncated")
    func headerLongerThanTotal() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: [], totalLength: 20, headerLength: 24)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
    }

    @Test("A total length reaching past a packet captured whole is malformed")
    func totalLengthPastWholePacket() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(), totalLength: 400)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 2)
    }

    @Test("A header cut by the snap length is truncated")
    func headerCutBySnapLength() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest
        let error = try #require(decoder.error(decoding: frame, linkType: .ethernet, capturedLength: 14 + 12))
        #expect(error == DecodeError(.truncated, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 14)  // the header that did not fit starts there
    }

    @Test("Options cut by the snap length are truncated")
    func optionsCutBySnapLength() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(), options: [1, 1, 1, 1, 1, 1, 1, 1])
        let error = try #require(decoder.error(decoding: packet, linkType: .raw, capturedLength: 24))
        #expect(error == DecodeError(.truncated, layer: .ipv4, offset: 0, expected: ""))
    }

    @Test("Protocols other than TCP and UDP are reported with their number")
    func otherProtocol() throws {
        let echoRequest: [UInt8] = [0x08, 0x00, 0xF7, 0xFF, 0x00, 0x00, 0x00, 0x00]
        let packet = PacketBuilder.ipv4(protocol: 1, payload: echoRequest)
        #expect(try decoder.summary(of: packet, linkType: .raw) == .other(source: "192.168.1.10", destination: "192.168.1.20", .icmp))
    }

    @Test("Every prefix of a frame cut by the snap length decodes or fails as truncated")
    func dripFedCutFrames() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest
        let headersEnd = 14 + 20 + 32
        for length in 0 ..< frame.count {
            if length >= headersEnd {
                let summary = try decoder.summary(of: frame, linkType: .ethernet, capturedLength: length)
                #expect(summary.payload == Array(Fixtures.hapRequestPayload.prefix(length - headersEnd)))
                #expect(summary.missing == frame.count - length)
            } else {
                let error = try #require(decoder.error(decoding: frame, linkType: .ethernet, capturedLength: length), "prefix \(length)")
                #expect(error.code == .truncated, "prefix \(length)")
                #expect(error.offset <= length, "prefix \(length)")
            }
        }
    }

    @Test("Every prefix of a frame captured whole fails as malformed, never truncated")
    func dripFedShortFrames() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest
        for length in 0 ..< frame.count {
            let error = try #require(decoder.error(decoding: Array(frame.prefix(length)), linkType: .ethernet), "prefix \(length)")
            #expect(error.code == .malformed, "prefix \(length)")
            #expect(error.offset <= length, "prefix \(length)")
        }
    }
}
