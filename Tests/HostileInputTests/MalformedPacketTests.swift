import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport

/// One hand-broken frame and what the problem it causes must say.
struct MalformedFrame: Sendable, CustomTestStringConvertible {
    let name: String
    let frame: [UInt8]
    /// Words the `undecodable-packet` problem must contain: the layer, the offset, the rule.
    let expected: [String]

    var testDescription: String { name }

    static let conversation = TCPConversation(controllerPort: 49_250)

    static let all: [MalformedFrame] = [
        MalformedFrame(
            name: "a frame shorter than an Ethernet header", frame: [0x02, 0x00, 0x00],
            expected: ["link: malformed at byte 0", "captured whole"]),
        MalformedFrame(
            name: "an IPv4 header length below 20 bytes",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, ipHeaderLength: 16),
            expected: ["ipv4: malformed at byte 14", "header length of at least 20 bytes, found 16"]),
        MalformedFrame(
            name: "an IPv4 header length beyond the total length",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, ipHeaderLength: 60),
            expected: ["ipv4: malformed at byte 16", "total length of at least the 60-byte header, found 40"]),
        MalformedFrame(
            name: "an IPv4 total length beyond a packet captured whole",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, ipTotalLength: 1_500),
            expected: ["ipv4: malformed at byte 16", "found 1500"]),
        MalformedFrame(
            name: "an IPv4 total length shorter than the header",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, ipTotalLength: 12),
            expected: ["ipv4: malformed at byte 16", "found 12"]),
        MalformedFrame(
            name: "an IP version other than 4 behind the IPv4 EtherType",
            frame: { var frame = conversation.segment(fromController: true, flags: TCPFlag.ack); frame[14] = 0x55; return frame }(),
            expected: ["ipv4: malformed at byte 14", "IP version 4, found 5"]),
        MalformedFrame(
            name: "a TCP data offset below 20 bytes",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, dataOffset: 8),
            expected: ["tcp: malformed at byte 46", "data offset of at least 20 bytes, found 8"]),
        MalformedFrame(
            name: "a TCP data offset beyond the segment",
            frame: conversation.segment(fromController: true, flags: TCPFlag.ack, dataOffset: 60),
            expected: ["tcp: malformed at byte 46", "found 60"]),
        MalformedFrame(
            name: "a TCP segment shorter than a TCP header",
            frame: Frames.ethernet(Frames.ipv4([0xC0, 0x01, 0xCA, 0x72, 0, 0, 0, 1, 0, 0], protocol: 6)),
            expected: ["tcp: malformed at byte 34", "a TCP header of at least 20 bytes"]),
        MalformedFrame(
            name: "a UDP length below its header",
            frame: Frames.ethernet(Frames.ipv4(Frames.udp([1, 2, 3, 4], length: 4), protocol: 17)),
            expected: ["udp: malformed at byte 38", "found 4"]),
        MalformedFrame(
            name: "a UDP length beyond the IP payload",
            frame: Frames.ethernet(Frames.ipv4(Frames.udp([1, 2, 3, 4], length: 4_000), protocol: 17)),
            expected: ["udp: malformed", "4000"]),
    ]
}

/// Frames that break a header rule: each is reported as an `undecodable-packet` problem naming
/// the packet, the layer and the byte offset, and the rest of the capture is analysed.
@Suite("Malformed packets")
struct MalformedPacketTests {
    @Test("A malformed frame is reported with its packet and offset, and the capture goes on", arguments: MalformedFrame.all)
    func malformedFrame(_ malformed: MalformedFrame) throws {
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: [malformed.frame] + exchange.frames)

        #expect(analysis.decoded(exchange))
        let reported = analysis.problemEvents(.undecodablePacket)
        try #require(reported.count == 1)
        #expect(reported[0].packet?.number == 1)
        #expect(reported[0].problem.message.hasPrefix("packet 1: "))
        for words in malformed.expected {
            #expect(reported[0].problem.message.contains(words), "\(reported[0].problem.message)")
        }
        #expect(analysis.summary?.undecodablePackets == 1)
    }

    @Test("A snap length that cuts a HAP request leaves a gap in its stream, reported with the packet, and later requests are decoded")
    func snapLengthCutsRequest() throws {
        var tcp = TCPConversation(controllerPort: 49_251)
        var records = tcp.handshake().map { CaptureRecord($0) }
        let request = HTTPText.request("PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":1,"iid":9,"value":1}]}"#.utf8), contentType: "application/hap+json")
        let cutFrame = tcp.controllerSends(request)
        records.append(CaptureRecord(Array(cutFrame.prefix(80)), originalLength: cutFrame.count))
        records.append(CaptureRecord(tcp.controllerSends(HTTPText.request("GET", "/accessories"))))
        records += tcp.close().map { CaptureRecord($0) }
        let exchange = HAPExchange()
        records += exchange.frames.map { CaptureRecord($0) }

        let analysis = try Analysis(records: records)

        let gap = try #require(analysis.problemEvents(.streamGap).first)
        #expect(gap.packet?.number == 4)
        #expect(gap.problem.message.contains("\(cutFrame.count - 80) bytes missing"))
        #expect(analysis.httpMessages.contains { $0.connection.controller.port == 49_251 && $0.message.requestLine?.target == "/accessories" })
        #expect(analysis.decoded(exchange))
    }

    @Test("A snap length that cuts an mDNS response is reported as a truncated message with its packet")
    func snapLengthCutsMDNS() throws {
        let response = MDNSMessages.hapAdvertisement
        let frame = Frames.mdns(response)
        let exchange = HAPExchange()

        let analysis = try Analysis(records: [CaptureRecord(Array(frame.prefix(90)), originalLength: frame.count)] + exchange.frames.map { CaptureRecord($0) })

        let problem = try #require(analysis.problemEvents(.undecodableMDNS).first)
        #expect(problem.packet?.number == 1)
        #expect(problem.problem.message.contains("dns: truncated"))
        #expect(analysis.decoded(exchange))
    }

    @Test("Packets of a link type the file does not declare cannot appear in pcap; an unknown EtherType is counted, not reported")
    func unknownEtherType() throws {
        let exchange = HAPExchange()
        let arpLike = Frames.ethernet([UInt8](repeating: 0, count: 28), etherType: 0x88B5)

        let analysis = try Analysis(frames: [arpLike] + exchange.frames)

        #expect(analysis.problems.isEmpty)
        #expect(analysis.summary?.otherPackets == 1)
        #expect(analysis.decoded(exchange))
    }
}
