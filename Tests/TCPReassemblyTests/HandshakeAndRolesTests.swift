import Packets
import Testing
@testable import TCPReassembly

@Suite struct HandshakeTests {
    typealias H = Harness

    @Test func aCapturedHandshakeMakesTheSYNSenderTheClientAndBothStreamsFlowInOrder() throws {
        let h = Harness()
        h.handshake()                                               // packets 1–3
        h.send(from: H.client, seq: 1001, ack: 5001, "GET")         // 4
        h.send(from: H.server, seq: 5001, ack: 1004, "HTTP")        // 5
        h.send(from: H.client, seq: 1004, ack: 5005, flags: .fin)   // 6
        h.send(from: H.server, seq: 5005, ack: 1005, flags: .fin)   // 7
        h.send(from: H.client, seq: 1005, ack: 5006)                // 8: the last ACK
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "GET", packet: 4),
            .received(connection: 1, .serverToClient, "HTTP", packet: 5),
            .closed(connection: 1, .fin, packet: 7),
        ])
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.client == H.client)
        #expect(connection.server == H.server)
        #expect(connection.handshakeSeen)
        #expect(connection.firstPacket.number == 1)
        #expect(connection.lastPacket.number == 8)
        #expect(connection.closeReason == .fin)
        #expect(connection.clientToServer.packets == 5)
        #expect(connection.clientToServer.deliveredBytes == 3)
        #expect(connection.serverToClient.packets == 3)
        #expect(connection.serverToClient.deliveredBytes == 4)
        #expect(h.reassembler.statistics.connectionsOpened == 1)
        #expect(h.reassembler.statistics.connectionsPickedUpMidStream == 0)
    }

    @Test func aSYNACKWithoutItsSYNStillTellsTheClientFromTheServer() throws {
        let h = Harness()
        h.send(from: H.server, seq: 5000, ack: 1001, flags: .syn)
        h.send(from: H.client, seq: 1001, ack: 5001, "GET")
        #expect(h.events == [.opened(connection: 1), .received(connection: 1, .clientToServer, "GET", packet: 2)])
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.client == H.client)
        #expect(connection.handshakeSeen)
    }

    @Test func theSYNAcknowledgmentPlacesTheServerStreamWhenTheSYNACKWasNotCaptured() {
        let h = Harness()
        h.send(from: H.client, seq: 1000, flags: .syn)
        h.send(from: H.client, seq: 1001, ack: 5001)          // the SYN-ACK was lost from the capture
        h.send(from: H.server, seq: 5004, ack: 1001, "def")   // 5001–5004 not captured either
        h.send(from: H.client, seq: 1001, ack: 5007)
        #expect(h.events == [
            .opened(connection: 1),
            .gap(connection: 1, .serverToClient, 3, packet: 4),
            .received(connection: 1, .serverToClient, "def", packet: 3),
        ])
    }

    @Test func aRetransmittedSYNBelongsToTheSameConnection() {
        let h = Harness()
        h.send(from: H.client, seq: 1000, flags: .syn)
        h.send(from: H.client, seq: 1000, flags: .syn, after: 1)
        h.send(from: H.server, seq: 5000, ack: 1001, flags: .syn)
        h.send(from: H.server, seq: 5000, ack: 1001, flags: .syn)
        h.send(from: H.client, seq: 1001, ack: 5001, "GET")
        #expect(h.events == [.opened(connection: 1), .received(connection: 1, .clientToServer, "GET", packet: 5)])
    }

    @Test func dataOnTheSYNFollowsTheSYNsSequenceNumber() {
        let h = Harness()
        h.send(from: H.client, seq: 1000, flags: .syn, "early")   // TCP Fast Open (RFC 7413)
        h.send(from: H.client, seq: 1006, "late")
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "early", packet: 1),
            .received(connection: 1, .clientToServer, "late", packet: 2),
        ])
    }
}

@Suite struct MidStreamRolesTests {
    typealias H = Harness

    @Test func aKnownServerPortDecidesTheRolesOfAConnectionPickedUpMidStream() throws {
        let h = Harness()
        h.reassembler.serverPorts = [H.server.port]
        h.send(from: H.server, seq: 7000, ack: 3000, "EVENT/1.0 200 OK")
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .serverToClient, "EVENT/1.0 200 OK", packet: 1),
        ])
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.server == H.server)
        #expect(!connection.handshakeSeen)
        #expect(h.reassembler.statistics.connectionsPickedUpMidStream == 1)
    }

    @Test func withoutABetterClueTheDestinationOfTheFirstDataIsTheServer() throws {
        let h = Harness()
        h.send(from: H.server, seq: 7000, ack: 3000, "EVENT/1.0 200 OK")
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.server == H.client)  // wrong, as documented: an EVENT came first
    }

    @Test func aPortBelowTheEphemeralRangesIsTheServers() throws {
        let h = Harness()
        let web = Endpoint(address: .v4(0xC0A8_0101), port: 8080)
        h.send(from: web, to: H.client, seq: 7000, ack: 3000, "HTTP/1.1 200 OK")
        let connection = try #require(h.delegate.connection(1))
        #expect(connection.server == web)
        #expect(connection.client == H.client)
    }

    @Test func theStreamOfAConnectionPickedUpMidStreamStartsAtItsFirstSegmentOrThePeersACK() {
        let h = Harness()
        h.reassembler.serverPorts = [H.server.port]
        h.send(from: H.client, seq: 3000, ack: 7000, "GET")    // opens; the server stream starts at 7000
        h.send(from: H.server, seq: 7003, ack: 3003, "def")    // 7000–7003 not captured
        h.send(from: H.client, seq: 3003, ack: 7006)
        #expect(h.events == [
            .opened(connection: 1),
            .received(connection: 1, .clientToServer, "GET", packet: 1),
            .gap(connection: 1, .serverToClient, 3, packet: 3),
            .received(connection: 1, .serverToClient, "def", packet: 2),
        ])
    }

    @Test func aSegmentWithoutSYNOrPayloadOpensNoConnection() {
        let h = Harness()
        h.send(from: H.client, seq: 1, ack: 2)
        h.send(from: H.client, seq: 1, ack: 2, flags: .fin)
        h.send(from: H.server, seq: 2, flags: .rst)
        #expect(h.events.isEmpty)
        #expect(h.reassembler.statistics.segmentsWithoutConnection == 3)
    }

    struct PortCase: Sendable, CustomStringConvertible {
        var source: UInt16
        var destination: UInt16
        var knownServerPorts: Set<UInt16> = []
        var destinationIsServer: Bool

        var description: String { "\(source) → \(destination), known \(knownServerPorts.sorted())" }
    }

    @Test(arguments: [
        PortCase(source: 49_312, destination: 51_826, destinationIsServer: true),
        PortCase(source: 51_826, destination: 49_312, destinationIsServer: true),
        PortCase(source: 51_826, destination: 49_312, knownServerPorts: [51_826], destinationIsServer: false),
        PortCase(source: 49_312, destination: 51_826, knownServerPorts: [51_826], destinationIsServer: true),
        PortCase(source: 80, destination: 49_312, destinationIsServer: false),
        PortCase(source: 49_312, destination: 80, destinationIsServer: true),
        PortCase(source: 32_767, destination: 32_768, destinationIsServer: false),
        PortCase(source: 8080, destination: 80, destinationIsServer: true),
        PortCase(source: 51_826, destination: 49_312, knownServerPorts: [51_826, 49_312], destinationIsServer: true),
        PortCase(source: 80, destination: 49_312, knownServerPorts: [49_312], destinationIsServer: true),
    ])
    func portRulesGuessTheServer(_ rule: PortCase) {
        #expect(ConnectionRoles.guessesDestinationIsServer(
            sourcePort: rule.source, destinationPort: rule.destination, serverPorts: rule.knownServerPorts) == rule.destinationIsServer)
    }
}
