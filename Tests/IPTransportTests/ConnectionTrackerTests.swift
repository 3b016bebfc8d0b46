import HAPCore
import HAPEvents
import Packets
import TCPReassembly
import Testing
import TestSupport
@testable import IPTransport

@Suite("Deciding which TCP connections speak HAP")
struct ConnectionTrackerTests {
    let accessories = Array("GET /accessories HTTP/1.1\r\n\r\n".utf8)

    @Test("every TCP connection is counted; one whose first request is for a HAP resource is opened as HAP")
    func recognisedByItsRequest() throws {
        let connection = try TrackedConnection()
        #expect(connection.context.summary.tcpConnections == 1)
        connection.clientSends(accessories)
        let opened = try #require(connection.recorder.connectionsOpened.only)
        #expect(opened.recognisedBy == .hapRequest)
        #expect(opened.handshakeSeen)
        #expect(opened.connection.controller == .ip(Peers.controller))
        #expect(opened.connection.accessory == .ip(Peers.accessory))
        #expect(opened.connection.transport == .ip(tcpConnection: 1))
        #expect(connection.context.summary.hapConnections == 1)
        #expect(connection.recorder.httpMessages.map(\.message.requestLine?.target) == ["/accessories"])
    }

    @Test("a request line split over segments is held until it can be read, then replayed whole")
    func splitRequestLine() throws {
        let connection = try TrackedConnection()
        connection.clientSends(Array(accessories.prefix(8)))
        #expect(connection.recorder.events.isEmpty, "\"GET /acc\" cannot be judged yet")
        connection.clientSends(Array(accessories.dropFirst(8)))
        #expect(connection.recorder.connectionsOpened.count == 1)
        let message = try #require(connection.recorder.httpMessages.only)
        #expect(message.firstPacket.number == 1)
        #expect(message.lastPacket.number == 2)
    }

    @Test("held bytes of both directions are replayed in order once the connection is judged")
    func heldBothDirections() throws {
        let connection = try TrackedConnection()
        connection.clientSends(Array("PUT /charac".utf8))
        connection.serverSends(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        connection.clientSends(Array("teristics HTTP/1.1\r\nContent-Length: 0\r\n\r\n".utf8))
        let messages = connection.recorder.httpMessages
        #expect(messages.map(\.direction) == [.accessoryToController, .controllerToAccessory],
                "the response came first on the wire; it answers nothing yet")
        #expect(messages.first?.request == nil)
    }

    @Test("a connection whose first request is for another resource is not HAP, and nothing more of it is looked at")
    func notHAP() throws {
        let connection = try TrackedConnection()
        connection.clientSends(Array("GET /index.html HTTP/1.1\r\n\r\n".utf8))
        connection.clientSends(accessories)
        connection.close()
        #expect(connection.recorder.events.isEmpty)
        #expect(connection.context.summary.hapConnections == 0)
    }

    @Test("held bytes that fill the window without a line end are judged on what they are")
    func window() throws {
        let connection = try TrackedConnection()
        connection.clientSends([UInt8](repeating: 0x41, count: ConnectionRecognition.window - 1))
        #expect(connection.recorder.events.isEmpty)
        connection.clientSends([0x41])
        connection.clientSends(accessories)
        #expect(connection.recorder.events.isEmpty, "judged not HAP at the window's end")
    }

    @Test("held bytes are judged at a gap, and at the close")
    func judgedAtGapAndClose() throws {
        let atGap = try TrackedConnection()
        atGap.clientSends(Array("GET /accessories HTTP/1.1".utf8))
        atGap.gap(10, .clientToServer)
        #expect(atGap.recorder.connectionsOpened.count == 1)
        #expect(atGap.recorder.problems(.streamGap).count == 1)
        let atClose = try TrackedConnection()
        atClose.clientSends(Array("GET /accessories HTTP/1.1".utf8))
        atClose.close()
        #expect(atClose.recorder.connectionsOpened.count == 1)
        #expect(!atClose.recorder.problems(.undecodableHTTP).isEmpty, "the request never ended")
        #expect(atClose.recorder.connectionsClosed.count == 1)
    }

    @Test("whoever sends the HAP request is the controller, even the side that is the TCP server")
    func rolesByContent() throws {
        let connection = try TrackedConnection(handshakeSeen: false, client: Peers.accessory, server: Peers.controller)
        connection.clientSends(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(connection.recorder.events.isEmpty, "a response to an unadvertised port says nothing")
        let reversed = try TrackedConnection(handshakeSeen: false, client: Peers.accessory, server: Peers.controller)
        reversed.serverSends(accessories)
        let opened = try #require(reversed.recorder.connectionsOpened.only)
        #expect(opened.connection.controller == .ip(Peers.controller))
        #expect(!opened.handshakeSeen)
        reversed.clientSends(HTTPText.jsonResponse(#"{"accessories":[]}"#))
        #expect(reversed.recorder.httpMessages.map(\.direction) == [.controllerToAccessory, .accessoryToController])
    }

    @Test("encrypted bytes to an endpoint an accessory advertised are a session under way: counted, named, not parsed")
    func advertisedEndpointMidSession() throws {
        let connection = try TrackedConnection(handshakeSeen: false, discovery: discoveryThatHeardTheAccessory())
        let ciphertext = frames(Array("GET /accessories HTTP/1.1\r\n\r\n".utf8), key: .stranger)
        connection.clientSends(ciphertext)
        connection.serverSends(frames([UInt8](repeating: 1, count: 100), key: .stranger))
        connection.close(.captureEnded)
        let opened = try #require(connection.recorder.connectionsOpened.only)
        #expect(opened.recognisedBy == .advertisedEndpoint)
        #expect(opened.deviceID == "1A:2B:3C:4D:5E:6F")
        let start = try #require(connection.recorder.sessionStarts.only)
        #expect(start.trigger == .beforeCapture)
        #expect(start.undecryptableBecause == .startedBeforeCapture)
        #expect(start.decryptable.isEmpty)
        #expect(connection.recorder.httpMessages.isEmpty)
        #expect(connection.recorder.problems.isEmpty)
        let summary = try #require(connection.recorder.connectionsClosed.only)
        #expect(summary.encrypted)
        #expect(summary.reason == .captureEnded)
        #expect(summary.frames[.controllerToAccessory]?.ciphertextBytes == ciphertext.count)
        #expect(summary.deviceID == "1A:2B:3C:4D:5E:6F")
    }

    @Test("plaintext HTTP to an advertised endpoint is parsed, not taken for a session under way")
    func advertisedEndpointPlaintext() throws {
        let connection = try TrackedConnection(discovery: discoveryThatHeardTheAccessory())
        connection.clientSends(Array("GET /identify-me-not HTTP/1.1\r\n\r\n".utf8))
        #expect(connection.recorder.connectionsOpened.first?.recognisedBy == .advertisedEndpoint)
        #expect(connection.recorder.sessionStarts.isEmpty)
        #expect(connection.recorder.httpMessages.count == 1)
    }

    @Test("a response from an advertised port makes its receiver the controller")
    func responseFromAdvertisedPort() throws {
        let connection = try TrackedConnection(handshakeSeen: false, client: Peers.accessory, server: Peers.controller, discovery: discoveryThatHeardTheAccessory())
        connection.clientSends(HTTPText.jsonResponse(#"{"characteristics":[]}"#))
        #expect(connection.recorder.connectionsOpened.first?.connection.accessory == .ip(Peers.accessory))
    }

    @Test("a closed connection is forgotten: its id may be used again")
    func closeForgets() throws {
        let connection = try TrackedConnection()
        connection.clientSends(Array("GET /index.html HTTP/1.1\r\n\r\n".utf8))
        connection.close()
        connection.clientSends(accessories)
        #expect(connection.recorder.connectionsOpened.count == 1)
    }
}
