import HAPAnalysis
import HAPCore
import HAPEvents
import WireParsing
import HAPJSON
import HTTP1
import Packets
import TCPReassembly
import Testing
import TestSupport
import TLV8

/// Every buffer wire data can grow has a bound, and reaching it through the whole pipeline is
/// reported: in the run's totals (`InputSummary.limitsReached`), as a problem or a diagnostic
/// naming where, or both. The analysis goes on after the bound.
@Suite("Resource limits reached through the pipeline")
struct ResourceLimitTests {
    /// A connection whose controller leaves a 10-byte hole and then sends `segments` segments of
    /// `size` bytes beyond it, which reassembly must hold for the hole.
    private static func outOfOrder(port: UInt16, segments: Int, size: Int, spacing: Int = 0) -> [[UInt8]] {
        var tcp = TCPConversation(controllerPort: port)
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        let start = tcp.controllerSequence
        for index in 0 ..< segments {
            let sequence = start + 10 + UInt32(index * (size + spacing))
            frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: [UInt8](repeating: 0x41, count: size), sequence: sequence))
        }
        return frames
    }

    private func configuration(_ change: (inout AnalysisLimits) -> Void) -> AnalysisConfiguration {
        var limits = AnalysisLimits()
        change(&limits)
        return AnalysisConfiguration(limits: limits)
    }

    @Test("Out-of-order bytes beyond the per-direction bound give up the hole as a gap, and the bound is counted")
    func bufferedBytesPerDirection() throws {
        let exchange = HAPExchange()
        let frames = Self.outOfOrder(port: 49_280, segments: 8, size: 1_000) + exchange.frames

        let analysis = try Analysis(frames: frames, configuration: configuration { $0.tcp.maximumBufferedBytesPerDirection = 4_096 })

        #expect(analysis.summary?.limitsReached[LimitName("tcp.buffered-bytes-per-direction")] ?? 0 >= 1)
        let gap = try #require(analysis.problemEvents(.streamGap).first)
        #expect(gap.problem.message.contains("10 bytes missing"))
        #expect(gap.packet?.number == 9)
        #expect(analysis.decoded(exchange))
    }

    @Test("Out-of-order bytes beyond the bound for all connections together are counted")
    func bufferedBytesInTotal() throws {
        let exchange = HAPExchange()
        let frames = Self.outOfOrder(port: 49_281, segments: 3, size: 1_000) + Self.outOfOrder(port: 49_282, segments: 3, size: 1_000)
            + exchange.frames

        let analysis = try Analysis(frames: frames, configuration: configuration { $0.tcp.maximumBufferedBytes = 4_096 })

        #expect(analysis.summary?.limitsReached[LimitName("tcp.buffered-bytes")] ?? 0 >= 1)
        #expect(!analysis.problems(.streamGap).isEmpty)
        #expect(analysis.decoded(exchange))
    }

    @Test("Out-of-order segments beyond the per-direction count are counted")
    func outOfOrderSegments() throws {
        let exchange = HAPExchange()
        let frames = Self.outOfOrder(port: 49_283, segments: 40, size: 1, spacing: 2) + exchange.frames

        let analysis = try Analysis(frames: frames, configuration: configuration { $0.tcp.maximumOutOfOrderSegmentsPerDirection = 16 })

        #expect(analysis.summary?.limitsReached[LimitName("tcp.out-of-order-segments")] ?? 0 >= 1)
        #expect(analysis.decoded(exchange))
    }

    @Test("Connections beyond the tracked-connection bound evict the least recently active, and the bound is counted")
    func trackedConnections() throws {
        var frames: [[UInt8]] = []
        for port in UInt16(49_300) ..< 49_340 {
            var tcp = TCPConversation(controllerPort: port)
            frames += tcp.handshake()
            frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        }
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames, configuration: configuration { $0.tcp.maximumConnections = 8 })

        #expect(analysis.summary?.limitsReached[LimitName("tcp.connections")] ?? 0 >= 32)
        let evicted = analysis.events.filter { event in
            if case .connectionClosed(let summary) = event.kind { summary.reason == .evicted } else { false }
        }
        #expect(evicted.count >= 32)
        #expect(analysis.decoded(exchange))
    }

    @Test("An HTTP body beyond the body bound is refused as a limit with its stream offset")
    func httpBodySize() throws {
        var tcp = TCPConversation(controllerPort: 49_284)
        var frames = tcp.handshake()
        let body = Array(#"{"characteristics":[{"aid":1,"iid":2,"value":""#.utf8) + [UInt8](repeating: 0x61, count: 2_000) + Array(#""}]}"#.utf8)
        frames.append(tcp.controllerSends(HTTPText.request("PUT", "/characteristics", body: body, contentType: "application/hap+json")))
        frames += tcp.close()
        let exchange = HAPExchange()

        let analysis = try Analysis(
            frames: frames + exchange.frames, configuration: configuration { $0.http = HTTPLimits(maxBodySize: 1_024) })

        let problem = try #require(analysis.problems(.undecodableHTTP).first { $0.message.contains("limit exceeded") })
        #expect(problem.message.contains("a Content-Length of at most 1024 bytes"))
        #expect(analysis.decoded(exchange))
    }

    @Test("JSON nested deeper than the depth bound is refused as a limit with its offset")
    func jsonDepth() throws {
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: exchange.frames, configuration: configuration { $0.json.maximumDepth = 4 })

        let refused = try #require(analysis.databases.first)
        #expect(refused.database == nil)
        #expect(refused.error?.description.contains("json: limit exceeded at byte") == true)
    }

    @Test("A pairing body of more items than the TLV8 bound is decoded up to it, with a diagnostic")
    func tlvItemCount() throws {
        var tcp = TCPConversation(controllerPort: 49_285)
        var frames = tcp.handshake()
        // State M1, then 2,000 items of alternating types, none of which HAP defines.
        let body: [UInt8] = [0x06, 0x01, 0x01] + (0 ..< 2_000).flatMap { [UInt8(0x20 + $0 % 2), 0x00] }
        frames.append(tcp.controllerSends(HTTPText.request("POST", "/pair-setup", body: body, contentType: "application/pairing+tlv8")))
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        let message = try #require(analysis.pairingMessages.first)
        #expect(message.body.items.count == TLV8Limits.default.maximumItemCount)
        #expect(message.diagnostics.contains { $0.kind == .tlv8(.tooManyItems(limit: TLV8Limits.default.maximumItemCount)) })
    }

    @Test("Encrypted frames longer than the frame bound stop decryption of their direction with a session problem")
    func frameLength() throws {
        let analysis = try Analysis(
            file: RecordedCapture.path("large-bridge.pcap"),
            configuration: AnalysisConfiguration(keyLog: try RecordedCapture("large-bridge").keyLog(), limits: {
                var limits = AnalysisLimits()
                limits.maximumFrameLength = 512
                return limits
            }()))

        let problem = try #require(analysis.sessionProblems.first { $0.kind == .frameBoundaryLost })
        #expect(problem.direction == .accessoryToController)
        #expect(problem.message.contains("512"))
    }

    @Test("IP fragments waiting beyond the pending-datagram bound are dropped and the bound is counted")
    func ipFragments() throws {
        let exchange = HAPExchange()
        // 1,100 first fragments of distinct datagrams, none ever completed.
        let fragments = (0 ..< 1_100).map { index in
            Frames.ethernet(Frames.ipv4(
                [UInt8](repeating: 0, count: 16), protocol: 17, identification: UInt16(index), moreFragments: true))
        }

        let analysis = try Analysis(frames: fragments + exchange.frames)

        #expect(analysis.decoded(exchange))
        #expect(analysis.summary?.limitsReached.keys.contains { $0.rawValue.hasPrefix("ip.") } == true)
    }
}
