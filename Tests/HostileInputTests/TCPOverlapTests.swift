import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// Segments that overlap, contradict each other, arrive out of order or run past a FIN: the
/// stream is assembled by the documented rule (the bytes received first win), the conflict is
/// counted on the connection, and the HTTP inside is decoded once.
///
/// Each capture starts with the accessory's mDNS advertisement, so that its connections are
/// recognised by their endpoint whatever their first bytes look like.
@Suite("Overlapping and contradicting TCP segments")
struct TCPOverlapTests {
    private static let request = HTTPText.request("GET", "/characteristics?id=1.2,1.3")
    private static let advertisement = Frames.mdns(MDNSMessages.hapAdvertisement)

    private func summary(_ analysis: Analysis, port: UInt16) -> ConnectionSummary? {
        analysis.events.lazy.compactMap { event -> ConnectionSummary? in
            guard case .connectionClosed(let summary) = event.kind, summary.connection.controller.port == port else { return nil }
            return summary
        }.first
    }

    @Test("Bytes that contradict bytes already buffered lose to them, and the conflict is counted")
    func contradictingOverlap() throws {
        var tcp = TCPConversation(controllerPort: 49_270)
        var frames = [Self.advertisement] + tcp.handshake()
        let start = tcp.controllerSequence
        let request = Self.request
        // The second half arrives first and is buffered; then a first half that runs 10 bytes into
        // it with different bytes there.
        frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: Array(request[20...]), sequence: start + 20))
        var forged = Array(request[..<30])
        for index in 20 ..< 30 { forged[index] = UInt8(ascii: "X") }
        frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: forged, sequence: start))
        _ = tcp.controllerSends(request)
        frames.append(tcp.accessorySends(HTTPText.response(body: Array(#"{"characteristics":[]}"#.utf8), contentType: "application/hap+json")))
        frames += tcp.close()
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames)

        let targets = analysis.httpMessages.filter { $0.connection.controller.port == 49_270 }.compactMap { $0.message.requestLine?.target }
        #expect(targets == ["/characteristics?id=1.2,1.3"])
        let counters = try #require(summary(analysis, port: 49_270)?.tcp[.controllerToAccessory])
        #expect(counters.conflictingOverlaps == 1)
        #expect(counters.outOfOrderSegments >= 1)
        #expect(analysis.decoded(exchange))
    }

    @Test("A retransmission that differs from bytes already delivered does not change the message")
    func contradictingRetransmission() throws {
        var tcp = TCPConversation(controllerPort: 49_271)
        var frames = [Self.advertisement] + tcp.handshake()
        let start = tcp.controllerSequence
        frames.append(tcp.controllerSends(Self.request))
        var forged = Self.request
        forged.replaceSubrange(4 ..< 20, with: Array("/pair-setup?xxxx".utf8))
        frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: forged, sequence: start))
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        let targets = analysis.httpMessages.compactMap { $0.message.requestLine?.target }
        #expect(targets == ["/characteristics?id=1.2,1.3"])
        let counters = try #require(summary(analysis, port: 49_271)?.tcp[.controllerToAccessory])
        #expect(counters.retransmissions == 1)
    }

    @Test("Segments delivered backwards one byte at a time assemble into the request")
    func reversedSingleBytes() throws {
        var tcp = TCPConversation(controllerPort: 49_272)
        var frames = [Self.advertisement] + tcp.handshake()
        let start = tcp.controllerSequence
        for index in Self.request.indices.reversed() {
            frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: [Self.request[index]], sequence: start + UInt32(index)))
        }
        _ = tcp.controllerSends(Self.request)
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        #expect(analysis.httpMessages.compactMap { $0.message.requestLine?.target } == ["/characteristics?id=1.2,1.3"])
        #expect(analysis.problems(.streamGap).isEmpty)
    }

    @Test("Payload after a FIN is not delivered, and a hole before the FIN is reported as a gap")
    func dataAfterFIN() throws {
        var tcp = TCPConversation(controllerPort: 49_273)
        var frames = [Self.advertisement] + tcp.handshake()
        let start = tcp.controllerSequence
        frames.append(tcp.controllerSends(Self.request))
        // A FIN placed 100 bytes after the request, leaving a hole, then bytes beyond the FIN.
        let finSequence = start + UInt32(Self.request.count) + 100
        frames.append(tcp.segment(fromController: true, flags: TCPFlag.fin | TCPFlag.ack, sequence: finSequence))
        frames.append(tcp.segment(fromController: true, flags: TCPFlag.ack, payload: HTTPText.request("GET", "/accessories"), sequence: finSequence + 1))
        frames.append(tcp.segment(fromController: false, flags: TCPFlag.fin | TCPFlag.ack, acknowledgment: finSequence + 1))
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: frames + exchange.frames)

        #expect(analysis.httpMessages.filter { $0.connection.controller.port == 49_273 }.compactMap { $0.message.requestLine?.target }
            == ["/characteristics?id=1.2,1.3"])
        #expect(analysis.problems(.streamGap).contains { $0.message.contains("100 bytes missing") })
        #expect(analysis.decoded(exchange))
    }

    @Test("A HAP connection whose request line arrives split over segments is recognised without an advertisement")
    func splitRequestLineWithoutAdvertisement() throws {
        var tcp = TCPConversation(controllerPort: 49_274)
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(Array(Self.request[..<3])))
        frames.append(tcp.controllerSends(Array(Self.request[3...])))
        frames += tcp.close()

        let analysis = try Analysis(frames: frames)

        #expect(analysis.httpMessages.compactMap { $0.message.requestLine?.target } == ["/characteristics?id=1.2,1.3"])
    }
}
