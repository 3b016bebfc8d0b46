import HAPCore
import HAPEvents
import Packets
import TCPReassembly
import Testing
import TestSupport
@testable import IPTransport

@Suite("Recognising HAP connections")
struct ConnectionRecognitionTests {
    static let controller = Endpoint(address: .v4(0x0A4D_0001), port: 49201)
    static let accessory = Endpoint(address: .v4(0x0A4D_0002), port: 51826)

    private func recognise(_ text: String, from sender: Endpoint = controller, discovery: DiscoveryTracker = DiscoveryTracker(setupID: nil, maximumInstances: 16))
        -> (TCPDirection, ConnectionOpenedEvent.Recognition)? {
        let connection = TCPConnection(
            id: 1, client: Self.controller, server: Self.accessory,
            firstPacket: PacketInfo(number: 1, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0),
            handshakeSeen: true)
        let direction: TCPDirection = sender == Self.controller ? .clientToServer : .serverToClient
        return Array(text.utf8).withUnsafeBytes { ConnectionRecognition(discovery: discovery).recognise(connection, direction: direction, bytes: $0) }
    }

    @Test(arguments: ["POST /pair-setup HTTP/1.1\r\n", "GET /accessories HTTP/1.1\r\n", "PUT /characteristics HTTP/1.1\r\n"])
    func aRequestForAHAPResourceMakesItsSenderTheController(line: String) throws {
        let (direction, recognition) = try #require(recognise(line))
        #expect(direction == .clientToServer)
        #expect(recognition == .hapRequest)
    }

    @Test func aRequestForAnotherResourceIsNotHAP() {
        #expect(recognise("GET /index.html HTTP/1.1\r\n") == nil)
    }

    @Test func encryptedBytesToAnUnadvertisedPortAreNotHAP() {
        #expect(recognise("\u{10}\u{0}garbage") == nil)
    }

    @Test func aRequestLineIsReadOnlyWhenWhole() {
        #expect(!ConnectionRecognition.isDecisive(Array("GET /access".utf8)))
        #expect(ConnectionRecognition.isDecisive(Array("GET /accessories HTTP/1.1\n".utf8)))
        #expect(ConnectionRecognition.isDecisive([0x10, 0x00]), "binary bytes cannot start a request line")
        #expect(ConnectionRecognition.isDecisive([UInt8](repeating: 0x41, count: ConnectionRecognition.window)))
    }

    @Test func theTargetIsTakenFromAWellFormedRequestLineOnly() {
        func target(_ text: String) -> String? { Array(text.utf8).withUnsafeBytes { ConnectionRecognition.requestTarget($0) } }
        #expect(target("GET /accessories HTTP/1.1\r\n") == "/accessories")
        #expect(target("get /accessories HTTP/1.1\r\n") == nil)
        #expect(target("GET accessories HTTP/1.1\r\n") == nil)
        #expect(target("GET /accessories\r\n") == nil)
    }

    @Test func anAdvertisedEndpointMakesItsPeerTheController() throws {
        let discovery = discoveryThatHeardTheAccessory()
        let toIt = try #require(recognise("\u{10}\u{0}frames", discovery: discovery))
        #expect(toIt == (.clientToServer, .advertisedEndpoint))
        let fromIt = try #require(recognise("\u{10}\u{0}frames", from: Self.accessory, discovery: discovery))
        #expect(fromIt == (.clientToServer, .advertisedEndpoint), "the accessory sent, so the controller sends the other way")
        #expect(ConnectionRecognition(discovery: discovery).deviceID(of: Self.accessory) == "1A:2B:3C:4D:5E:6F")
        #expect(ConnectionRecognition(discovery: discovery).deviceID(of: Self.controller) == nil)
    }

    @Test func anAdvertisedPortAloneMarksTheConnectionWhoeverListens() throws {
        let discovery = discoveryThatHeard(
            MDNSMessages.advertisement(instance: "Elsewhere", port: Self.accessory.port, txt: ["c#=1", "md=X", "sf=1"]),
            from: .v4(0x0A4D_0063))
        #expect(discovery.deviceIDs.isEmpty, "no id was advertised, only the port")
        #expect(recognise("\u{10}\u{0}frames", discovery: discovery).map { $0.0 } == .clientToServer)
        #expect(recognise("HTTP/1.1 200 OK\r\n", from: Self.accessory, discovery: discovery).map { $0.0 } == .clientToServer,
                "a response from the advertised port is the accessory answering")
    }

    @Test func httpIsToldFromFramesByItsFirstBytes() {
        func starts(_ text: String) -> (http: Bool, response: Bool) {
            Array(text.utf8).withUnsafeBytes { (ConnectionRecognition.startsWithHTTP($0), ConnectionRecognition.startsWithResponse($0)) }
        }
        #expect(starts("HTTP/1.1 204 No Content\r\n") == (true, true))
        #expect(starts("EVENT/1.0 200 OK\r\n") == (true, true))
        #expect(starts("GET /accessories HTTP/1.1\r\n") == (true, false))
        #expect(starts("HTTP/2") == (false, false))
        #expect(starts("\u{10}\u{0}GET /") == (false, false))
    }
}
