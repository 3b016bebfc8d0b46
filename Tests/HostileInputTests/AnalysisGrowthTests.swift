import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// State the session layer keeps per connection or per run that wire data alone could grow. Each
/// test states the bound the analysis keeps and sends traffic past it.
@Suite("Growth of session-layer state under hostile traffic")
struct AnalysisGrowthTests {
    /// Requests a controller may leave unanswered before the analysis stops holding them.
    static let reasonableOutstandingRequests = 1_024

    @Test("Requests pipelined without responses are held only up to a bound, which is reported")
    func unansweredRequests() throws {
        var tcp = TCPConversation(controllerPort: 49_290)
        var frames = tcp.handshake()
        let write = HTTPText.request(
            "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":1,"iid":9,"value":true}]}"#.utf8),
            contentType: "application/hap+json")
        for _ in 0 ..< 3_000 { frames.append(tcp.controllerSends(write)) }
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        // At the close every request still held is reported as an unanswered write.
        let unanswered = analysis.events.filter { event in
            if case .characteristic(let activity) = event.kind { !activity.answered } else { false }
        }
        #expect(analysis.httpMessages.count == 3_000)
        #expect(unanswered.count <= Self.reasonableOutstandingRequests)
        #expect(!analysis.problems(.limitReached).isEmpty)
    }

    @Test("Pairing messages repeated without end do not accumulate in one exchange")
    func repeatedPairingSteps() throws {
        var tcp = TCPConversation(controllerPort: 49_291)
        var frames = tcp.handshake()
        // Pair Setup M3 again and again: never M1, so the exchange never starts over.
        let m3: [UInt8] = [0x06, 0x01, 0x03, 0x03, 0x01, 0x01, 0x04, 0x01, 0x02]
        for _ in 0 ..< 2_000 {
            frames.append(tcp.controllerSends(HTTPText.request("POST", "/pair-setup", body: m3, contentType: "application/pairing+tlv8")))
        }
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        let exchanges = analysis.events.compactMap { event -> PairingExchangeEvent? in
            if case .pairingExchange(let exchange) = event.kind { exchange } else { nil }
        }
        #expect(analysis.pairingMessages.count == 2_000)
        #expect(exchanges.allSatisfy { $0.steps.count <= Self.reasonableOutstandingRequests })
    }

    @Test("Advertised instances are remembered only up to a bound, which is reported")
    func advertisedInstances() throws {
        func announcement(_ index: Int) -> [UInt8] {
            let instance = MDNSMessages.name("Flood \(index)._hap._tcp.local")
            return MDNSMessages.responseHeader(answers: 2)
                + MDNSMessages.record(MDNSMessages.name("_hap._tcp.local"), type: 12, data: instance, cacheFlush: false)
                + MDNSMessages.record(instance, type: 16, data: MDNSMessages.txt(["c#=1", "id=AA:BB:CC:DD:EE:\(index % 100)", "md=Flood", "sf=1"]))
        }
        let frames = (0 ..< 6_000).map { Frames.mdns(announcement($0)) } + [Frames.mdns(announcement(0))]

        let analysis = try Analysis(frames: frames)

        #expect(analysis.advertisements.count == 6_001)
        #expect(analysis.advertisements.last?.isFirstSighting == true)
        #expect(!analysis.problems(.limitReached).isEmpty)
    }
}
