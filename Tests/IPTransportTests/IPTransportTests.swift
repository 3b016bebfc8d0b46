import HAPCore
import HAPCrypto
import HAPEvents
import Packets
import Testing
import TestSupport
@testable import IPTransport

@Suite("HAP over IP as the pipeline drives it")
struct IPTransportTests {
    let verify = PairVerifyTranscript()

    private func transport(
        keyLog: [String] = [], configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws -> (IPTransport, SegmentFeeder, AnalysisContext, EventRecorder) {
        let (context, recorder) = try AnalysisContext.recording(keyLog: keyLog, configure: configure)
        let transport = IPTransport(context: context)
        return (transport, SegmentFeeder(transport), context, recorder)
    }

    /// Hands `message` to the transport as an mDNS datagram from the accessory; whether it was
    /// taken as mDNS and decoded (its discovery handed back for the other transports).
    private func mdns(_ message: [UInt8], to transport: IPTransport, packet number: Int = 1, sourcePort: UInt16 = 5353) -> Bool {
        let verdict = message.withUnsafeBytes { payload in
            transport.process(
                UDPDatagram(packet: .numbered(number), source: Endpoint(address: Peers.accessory.address, port: sourcePort),
                            destination: Endpoint(address: .v4(0xE000_00FB), port: 5353), payload: payload),
                packet: .numbered(number))
        }
        guard case .mdns(let discovery) = verdict else { return false }
        return discovery != nil
    }

    @Test("TCP segments become a HAP connection's messages, from the handshake to the close")
    func segmentsToMessages() throws {
        let (transport, feeder, context, recorder) = try transport()
        feeder.handshake()
        feeder.clientSends(HTTPText.request("GET", "/accessories"))
        feeder.serverSends(HTTPText.jsonResponse(#"{"accessories":[]}"#))
        feeder.close()
        transport.finish()
        #expect(recorder.connectionsOpened.only?.handshakeSeen == true)
        #expect(recorder.httpMessages.map(\.request?.target) == [nil, "/accessories"])
        let summary = try #require(recorder.connectionsClosed.only)
        #expect(summary.reason == .closed)
        #expect(summary.tcp[.controllerToAccessory]?.payloadBytes == HTTPText.request("GET", "/accessories").count)
        #expect(context.summary.tcpConnections == 1)
        #expect(context.summary.hapConnections == 1)
    }

    @Test("the session names the TCP sequence number of each direction's first encrypted byte")
    func frameStartSequenceNumbers() throws {
        let (_, feeder, _, recorder) = try transport(keyLog: [verify.keyLogLine(.sharedSecret)])
        feeder.handshake()
        let requests = [verify.m1(), verify.m3()].map { HTTPText.pairingRequest("/pair-verify", $0) }
        let responses = [verify.m2(), verify.m4()].map(HTTPText.pairingResponse)
        feeder.clientSends(requests[0])
        feeder.serverSends(responses[0])
        feeder.clientSends(requests[1])
        feeder.serverSends(responses[1])
        let start = try #require(recorder.sessionStarts.only)
        #expect(start.tcpFrameStart == [
            .controllerToAccessory: feeder.clientOrigin &+ UInt32(requests[0].count + requests[1].count),
            .accessoryToController: feeder.serverOrigin &+ UInt32(responses[0].count + responses[1].count),
        ])
    }

    @Test("mDNS datagrams are taken and counted; other UDP is left to others")
    func datagrams() throws {
        let (transport, _, context, recorder) = try transport()
        let announcement = MDNSMessages.advertisement(instance: "Lamp", txt: ["c#=1", "id=1A:2B:3C:4D:5E:6F", "sf=1", "ci=5", "md=L", "s#=1", "ff=0", "pv=1.1"])
        #expect(mdns(announcement, to: transport))
        #expect(mdns(announcement, to: transport, sourcePort: 53_000), "either end on 5353 makes it mDNS")
        let other = [UInt8](repeating: 0, count: 12).withUnsafeBytes { payload in
            transport.process(UDPDatagram(packet: .numbered(3), source: Endpoint(address: .v4(1), port: 53), destination: Endpoint(address: .v4(2), port: 40_000), payload: payload), packet: .numbered(3))
        }
        guard case .notMDNS = other else { Issue.record("a datagram on neither port 5353 was taken as mDNS"); return }
        #expect(context.summary.mdnsMessages == 2)
        #expect(recorder.advertisements.count == 2)
        #expect(recorder.events.allSatisfy { $0.packet != nil }, "every event names its datagram's packet")
    }

    @Test("forgetting advertised instances to stay within the limit is counted, and reported once by name")
    func mdnsLimit() throws {
        let (transport, _, context, recorder) = try transport { $0.limits.maximumMDNSInstances = 1 }
        for name in ["A", "B", "C"] {
            _ = mdns(MDNSMessages.advertisement(instance: name, txt: ["id=AA:BB:CC:DD:EE:0\(name)", "c#=1", "sf=1"]), to: transport)
        }
        let reported = recorder.problems(.limitReached)
        #expect(reported.map(\.problem.limit) == [.mdnsInstances])
        #expect((context.summary.limitsReached[.mdnsInstances] ?? 0) >= 2)
    }

    @Test("a connection silent for the idle timeout is closed as idle when capture time passes it")
    func idleConnections() throws {
        let (transport, feeder, _, recorder) = try transport { $0.limits.tcp.idleTimeout = .seconds(30) }
        feeder.handshake()
        feeder.clientSends(HTTPText.request("GET", "/accessories"))
        feeder.wait(60)
        transport.sweepIdleConnections(at: feeder.clock)
        #expect(recorder.connectionsClosed.only?.reason == .idleTimeout)
    }

    @Test("finishing closes every open connection as the capture ended, and adds the TCP layer's own limit counts")
    func finish() throws {
        let (transport, feeder, context, recorder) = try transport { $0.limits.tcp.maximumConnections = 1 }
        feeder.handshake()
        feeder.clientSends(HTTPText.request("GET", "/accessories"))
        let second = SegmentFeeder(transport, clientPort: 49_202)
        second.handshake()
        second.clientSends(HTTPText.request("GET", "/accessories"))
        transport.finish()
        #expect(recorder.connectionsClosed.map(\.reason) == [.evicted, .captureEnded])
        #expect(context.summary.limitsReached[.tcpConnections] == 1)
        #expect(recorder.problems(.limitReached).isEmpty, "the TCP layer's limits are counted, not reported one by one")
    }
}
