import HAPCore
import HAPCrypto
import HAPEvents
import HTTP1
import Packets
import TCPReassembly
import TestSupport
import WireParsing
@testable import IPTransport

// MARK: Endpoints

enum Peers {
    static let controller = Endpoint(address: .v4(0x0A4D_0001), port: 49201)
    static let accessory = Endpoint(address: .v4(0x0A4D_0002), port: 51826)
}

// MARK: Discovery

/// A discovery tracker that has heard `announcement`, sent from `address`.
func discoveryThatHeard(_ announcement: [UInt8], from address: IPAddress) -> DiscoveryTracker {
    let discovery = DiscoveryTracker(setupID: nil, maximumInstances: 16)
    announcement.withUnsafeBytes { payload in
        _ = discovery.process(UDPDatagram(
            packet: .numbered(1), source: Endpoint(address: address, port: 5353),
            destination: Endpoint(address: .v4(0xE000_00FB), port: 5353), payload: payload)) { _ in }
    }
    return discovery
}

/// A discovery tracker that has heard the accessory (device id `1A:2B:3C:4D:5E:6F`) advertise
/// `Peers.accessory`, from that address.
func discoveryThatHeardTheAccessory() -> DiscoveryTracker {
    discoveryThatHeard(MDNSMessages.advertisement(
        instance: "Lamp", port: Peers.accessory.port, txt: ["c#=1", "id=1A:2B:3C:4D:5E:6F", "md=Lamp", "s#=1", "sf=0", "ci=5", "ff=0", "pv=1.1"]),
        from: Peers.accessory.address)
}

// MARK: HTTP messages

/// The messages `bytes` parse to, as one direction of a connection carries them.
func parsedMessages(_ bytes: [UInt8]) throws -> [HTTPMessage] {
    var parser = HTTPStreamParser()
    var messages: [HTTPMessage] = []
    func handle(_ event: HTTPStreamEvent) {
        if case .message(let message) = event { messages.append(message) }
    }
    // Caught inside: a closure with a typed throw here crashes the 6.3 compiler's IR generation.
    var failure: DecodeError?
    bytes.withUnsafeBytes { raw in
        do throws(DecodeError) { try parser.feed(raw, handle) } catch { failure = error }
    }
    if let failure { throw failure }
    try parser.finish(handle)
    return messages
}

/// The one message `bytes` parse to.
func parsedMessage(_ bytes: [UInt8]) throws -> HTTPMessage {
    let messages = try parsedMessages(bytes)
    guard messages.count == 1, let message = messages.first else {
        throw DecodeError(.malformed, layer: .http, offset: 0, expected: "exactly one message, not \(messages.count)")
    }
    return message
}

// MARK: Channels

extension HTTPChannel {
    /// Feeds `bytes`, which arrived in packet `number`.
    func feed(_ bytes: [UInt8], packet number: Int, to receiver: some HTTPChannelReceiver) {
        bytes.withUnsafeBytes { feed($0, packet: .numbered(number), to: receiver) }
    }

    func feed(_ text: String, packet number: Int, to receiver: some HTTPChannelReceiver) {
        feed(Array(text.utf8), packet: number, to: receiver)
    }
}

/// What an `HTTPChannel` handed on, with the packets the channel named for each message's
/// first and last byte.
final class HTTPChannelRecorder: HTTPChannelReceiver {
    struct Parsed {
        let message: HTTPMessage
        let firstPacket: Int
        let lastPacket: Int
        let stray: Bool
    }

    private(set) var parsed: [Parsed] = []
    private(set) var discarded: [(bytes: HTTPDiscardedBytes, packet: Int)] = []
    private(set) var failures: [(error: DecodeError, packet: Int)] = []
    /// Called with each message after it is recorded, to act while the channel runs.
    var onMessage: ((HTTPChannel, HTTPMessage) -> Void)?

    var targets: [String] { parsed.map { $0.message.requestLine?.target ?? $0.message.status.map { "\($0.rawValue)" } ?? "?" } }

    func channel(_ channel: HTTPChannel, parsed message: HTTPMessage, firstPacket: PacketInfo, lastPacket: PacketInfo) {
        parsed.append(Parsed(
            message: message, firstPacket: firstPacket.number, lastPacket: lastPacket.number, stray: channel.isParsingStrayPlaintext))
        onMessage?(channel, message)
    }

    func channel(_ channel: HTTPChannel, discarded bytes: HTTPDiscardedBytes, packet: PacketInfo) {
        discarded.append((bytes, packet.number))
    }

    func channel(_ channel: HTTPChannel, failed error: DecodeError, packet: PacketInfo) {
        failures.append((error, packet.number))
    }
}

extension EncryptedChannel {
    /// Feeds `bytes`, which arrived in packet `number`.
    func receive(_ bytes: [UInt8], packet number: Int, to receiver: some EncryptedChannelReceiver) {
        bytes.withUnsafeBytes { receive($0, packet: .numbered(number), to: receiver) }
    }

    func mayStartPlaintext(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { mayStartPlaintext($0) }
    }
}

/// What an `EncryptedChannel` handed on.
final class EncryptedChannelRecorder: EncryptedChannelReceiver {
    struct Problem: Equatable {
        let kind: SessionProblemEvent.Kind
        let counter: UInt64?
        let packet: Int
    }

    private(set) var plaintext: [UInt8] = []
    /// The packet of each frame decrypted.
    private(set) var framePackets: [Int] = []
    private(set) var lostFrames: [Int] = []
    private(set) var problems: [Problem] = []
    private(set) var messages: [String] = []
    private(set) var limits: [LimitName] = []
    private(set) var joins: [(join: HAPFrameJoiner.Join, packet: Int)] = []
    private(set) var joinFailures: [HAPFrameJoiner.Failure] = []

    func channel(_ channel: EncryptedChannel, decrypted plaintext: UnsafeRawBufferPointer, packet: PacketInfo) {
        self.plaintext += plaintext
        framePackets.append(packet.number)
    }

    func channelLostFrame(_ channel: EncryptedChannel, packet: PacketInfo) {
        lostFrames.append(packet.number)
    }

    func channel(_ channel: EncryptedChannel, problem: SessionProblemEvent.Kind, counter: UInt64?, _ message: String, packet: PacketInfo) {
        problems.append(Problem(kind: problem, counter: counter, packet: packet.number))
        messages.append(message)
    }

    func channel(_ channel: EncryptedChannel, reached limit: LimitName, packet: PacketInfo) {
        limits.append(limit)
    }

    func channel(_ channel: EncryptedChannel, joined join: HAPFrameJoiner.Join, packet: PacketInfo) {
        joins.append((join, packet.number))
    }

    func channel(_ channel: EncryptedChannel, failedToJoin failure: HAPFrameJoiner.Failure, packet: PacketInfo) {
        joinFailures.append(failure)
    }
}

// MARK: Byte streams

/// `bytes` cut into pieces at `cuts` (offsets, in any order; out-of-range ones ignored).
func pieces(_ bytes: [UInt8], cutAt cuts: [Int]) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var start = 0
    for cut in Set(cuts).sorted() where cut > start && cut < bytes.count {
        pieces.append(Array(bytes[start ..< cut]))
        start = cut
    }
    pieces.append(Array(bytes[start...]))
    return pieces
}

/// `bytes` cut at `count` places drawn from `random`.
func randomPieces(_ bytes: [UInt8], count: Int, _ random: inout SeededRandom) -> [[UInt8]] {
    pieces(bytes, cutAt: (0 ..< count).map { _ in Int.random(in: 0 ... bytes.count, using: &random) })
}

/// The frames one direction of a session sends, sealed with `key` from counter 0.
func frames(_ plaintext: [UInt8], key: ChaCha20Poly1305.Key, maximumFrameLength: Int = HAPFrame.maximumLength) -> [UInt8] {
    var encryptor = HAPFrameEncryptor(key: key)
    // The lengths used are within 1...65535.
    return try! encryptor.seal(plaintext.span.bytes, maximumFrameLength: maximumFrameLength)
}

// MARK: A connection fed its streams

/// A TCP connection between `Peers.controller` (the client) and `Peers.accessory` handed to a
/// `ConnectionTracker` as TCP reassembly would hand it: opened, then stream pieces of either
/// direction, gaps, and the close. Packets are numbered from 1, a millisecond apart.
final class TrackedConnection {
    let context: AnalysisContext
    let recorder: EventRecorder
    let discovery: DiscoveryTracker
    let tracker: ConnectionTracker
    let tcp: TCPConnection
    private(set) var packetNumber = 0

    init(
        keyLog lines: [String] = [], handshakeSeen: Bool = true, client: Endpoint = Peers.controller, server: Endpoint = Peers.accessory,
        discovery: DiscoveryTracker = DiscoveryTracker(setupID: nil, maximumInstances: 16),
        configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws {
        (context, recorder) = try AnalysisContext.recording(keyLog: lines, configure: configure)
        self.discovery = discovery
        tracker = ConnectionTracker(context: context, discovery: discovery)
        tcp = TCPConnection(id: 1, client: client, server: server, firstPacket: .numbered(1), handshakeSeen: handshakeSeen)
        tracker.tcpConnectionOpened(tcp)
    }

    private func nextPacket() -> PacketInfo {
        packetNumber += 1
        return .numbered(packetNumber)
    }

    /// The client sends `bytes` in one segment.
    func clientSends(_ bytes: [UInt8]) {
        send(bytes, .clientToServer)
    }

    /// The server sends `bytes` in one segment.
    func serverSends(_ bytes: [UInt8]) {
        send(bytes, .serverToClient)
    }

    func send(_ bytes: [UInt8], _ direction: TCPDirection) {
        let packet = nextPacket()
        bytes.withUnsafeBytes { tracker.tcpStream(tcp, direction: direction, didReceive: $0, packet: packet) }
    }

    /// `byteCount` bytes of `direction` are missing.
    func gap(_ byteCount: UInt64, _ direction: TCPDirection) {
        tracker.tcpStream(tcp, direction: direction, didSkipGapOf: byteCount, packet: nextPacket())
    }

    func close(_ reason: TCPCloseReason = .fin) {
        tracker.tcpConnectionClosed(tcp, reason: reason, packet: nextPacket())
    }

    /// Pair-verify M1–M4 of `verify` over HTTP, each message in a segment of its own; with
    /// `lastResponseTail`, the M4 response's segment carries those bytes after it.
    func pairVerify(_ verify: PairVerifyTranscript, lastResponseTail: [UInt8] = []) {
        clientSends(HTTPText.pairingRequest("/pair-verify", verify.m1()))
        serverSends(HTTPText.pairingResponse(verify.m2()))
        clientSends(HTTPText.pairingRequest("/pair-verify", verify.m3()))
        serverSends(HTTPText.pairingResponse(verify.m4()) + lastResponseTail)
    }
}

// MARK: Segments for the whole transport

/// TCP segments between `Peers.controller` and `Peers.accessory` for an `IPTransport`, each
/// side's sequence numbers kept, so that a test writes what is said and gets correct TCP around it.
final class SegmentFeeder {
    let transport: IPTransport
    private(set) var packetNumber = 0
    private var clientSequence: UInt32 = 1_000
    private var serverSequence: UInt32 = 9_000
    /// The capture time of the next packet, advanced a millisecond per packet.
    private(set) var clock = Timestamp(seconds: 1_700_000_000, nanoseconds: 0)

    private let client: Endpoint

    /// Segments of a connection from the controller's `clientPort`.
    init(_ transport: IPTransport, clientPort: UInt16 = Peers.controller.port) {
        self.transport = transport
        client = Endpoint(address: Peers.controller.address, port: clientPort)
    }

    /// The stream offset 0 of each direction, once the handshake is done.
    var clientOrigin: UInt32 { 1_001 }
    var serverOrigin: UInt32 { 9_001 }

    func handshake() {
        segment(fromClient: true, flags: .syn, sequence: clientSequence, acknowledgment: 0)
        segment(fromClient: false, flags: [.syn, .ack], sequence: serverSequence, acknowledgment: clientSequence &+ 1)
        clientSequence &+= 1
        serverSequence &+= 1
        segment(fromClient: true, flags: .ack)
    }

    func clientSends(_ bytes: [UInt8]) {
        segment(fromClient: true, flags: [.ack, .psh], payload: bytes)
        clientSequence &+= UInt32(bytes.count)
    }

    func serverSends(_ bytes: [UInt8]) {
        segment(fromClient: false, flags: [.ack, .psh], payload: bytes)
        serverSequence &+= UInt32(bytes.count)
    }

    /// FIN from each side, then the last ACK.
    func close() {
        segment(fromClient: true, flags: [.fin, .ack])
        clientSequence &+= 1
        segment(fromClient: false, flags: [.fin, .ack])
        serverSequence &+= 1
        segment(fromClient: true, flags: .ack)
    }

    /// Lets `seconds` of capture time pass before the next packet.
    func wait(_ seconds: Int64) {
        clock = Timestamp(seconds: clock.seconds + seconds, nanoseconds: clock.nanoseconds)
    }

    private func segment(fromClient: Bool, flags: TCPFlags, payload: [UInt8] = [], sequence: UInt32? = nil, acknowledgment: UInt32? = nil) {
        packetNumber += 1
        let nanoseconds = clock.nanoseconds + 1_000_000
        clock = Timestamp(seconds: clock.seconds + Int64(nanoseconds / 1_000_000_000), nanoseconds: nanoseconds % 1_000_000_000)
        let info = PacketInfo(number: packetNumber, timestamp: clock, capturedLength: 54 + payload.count, originalLength: 54 + payload.count)
        transport.sweepIdleConnections(at: clock)
        payload.withUnsafeBytes { bytes in
            transport.process(TCPSegment(
                packet: info, source: fromClient ? client : Peers.accessory, destination: fromClient ? Peers.accessory : client,
                sequenceNumber: sequence ?? (fromClient ? clientSequence : serverSequence),
                acknowledgmentNumber: acknowledgment ?? (fromClient ? serverSequence : clientSequence), flags: flags, window: 65_535,
                payload: bytes))
        }
    }
}
