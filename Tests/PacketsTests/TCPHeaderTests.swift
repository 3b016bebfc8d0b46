import Packets
import Testing
import WireParsing

@Suite("TCP")
struct TCPHeaderTests {
    let decoder = PacketDecoder()

    @Test("Ports, numbers, flags and window are read, and options skipped")
    func fieldsAreRead() throws {
        let segment = PacketBuilder.tcp(
            sourcePort: 51_826, destinationPort: 60_000, sequence: 0xFFFF_FFFF, acknowledgment: 7, flags: 0x12,
            options: [0x02, 0x04, 0x05, 0xB4], payload: [])
        let summary = try decoder.summary(of: PacketBuilder.ipv4(protocol: 6, payload: segment), linkType: .raw)
        #expect(summary == .tcp(
            source: "192.168.1.10:51826", destination: "192.168.1.20:60000", sequence: 0xFFFF_FFFF, acknowledgment: 7,
            flags: [.syn, .ack], window: 4_096, payload: [], missing: 0))
    }

    @Test("A data offset below 5 words is malformed at the data offset", arguments: [0, 4])
    func dataOffsetBelowMinimum(words: Int) throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(dataOffsetWords: words, payload: [1, 2, 3, 4]))
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .tcp, offset: 0, expected: ""))
        #expect(error.offset == 20 + 12)
    }

    @Test("A data offset past the segment the IP length leaves is malformed")
    func dataOffsetPastSegment() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(dataOffsetWords: 8, payload: [1, 2, 3, 4]))
        let error = try #require(decoder.error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .tcp, offset: 0, expected: ""))
    }

    @Test("An IP length too short for any TCP header is malformed even when the capture was cut")
    func segmentTooShortForHeader() throws {
        let packet = PacketBuilder.ipv4(protocol: 6, payload: PacketBuilder.tcp(), totalLength: 20 + 12)
        let error = try #require(decoder.error(decoding: packet, linkType: .raw, capturedLength: 30, originalLength: 60))
        #expect(error == DecodeError(.malformed, layer: .tcp, offset: 0, expected: ""))
    }

    @Test("A header cut by the snap length is truncated in the tcp layer")
    func headerCut() throws {
        let error = try #require(decoder.error(decoding: Fixtures.hapRequest, linkType: .raw, capturedLength: 20 + 24))
        #expect(error == DecodeError(.truncated, layer: .tcp, offset: 0, expected: ""))
        #expect(error.offset == 40)  // where the options that did not fit begin
    }

    @Test("A payload cut by the snap length is delivered with the missing bytes counted")
    func payloadCut() throws {
        let summary = try decoder.summary(of: Fixtures.hapRequest, linkType: .raw, capturedLength: 20 + 32 + 16)
        #expect(summary.payload == Array(Fixtures.hapRequestPayload.prefix(16)))
        #expect(summary.missing == 33)
    }
}
