import Packets
@testable import TCPReassembly

/// What the reassembler told its delegate, in order, with bytes copied out.
enum StreamEvent: Equatable, CustomStringConvertible {
    case opened(connection: Int)
    case received(connection: Int, TCPDirection, String, packet: Int)
    case gap(connection: Int, TCPDirection, UInt64, packet: Int)
    case closed(connection: Int, TCPCloseReason, packet: Int?)

    var description: String {
        switch self {
        case .opened(let id): "opened #\(id)"
        case .received(let id, let direction, let text, let packet): "#\(id) \(direction) \"\(text)\" from packet \(packet)"
        case .gap(let id, let direction, let count, let packet): "#\(id) \(direction) gap of \(count) at packet \(packet)"
        case .closed(let id, let reason, let packet): "closed #\(id) \(reason) at packet \(packet.map(String.init) ?? "none")"
        }
    }
}

/// Records every delegate call; the bytes of each chunk are kept both as text (for scripted
/// expectations) and as raw bytes (for byte-exact property checks).
final class RecordingDelegate: TCPStreamDelegate {
    var events: [StreamEvent] = []
    var connections: [TCPConnection] = []
    /// Each chunk or gap, per connection and direction, in delivery order.
    var pieces: [Int: [TCPDirection: [StreamPiece]]] = [:]
    /// The base address of each delivered chunk, to show that in-order bytes are not copied.
    var chunkAddresses: [UnsafeRawPointer?] = []

    func tcpConnectionOpened(_ connection: TCPConnection) {
        connections.append(connection)
        events.append(.opened(connection: connection.id))
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        let copy = [UInt8](bytes)
        chunkAddresses.append(bytes.baseAddress)
        pieces[connection.id, default: [:]][direction, default: []].append(.bytes(copy, packet: packet.number))
        events.append(.received(connection: connection.id, direction, String(decoding: copy, as: UTF8.self), packet: packet.number))
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
        pieces[connection.id, default: [:]][direction, default: []].append(.gap(byteCount, packet: packet.number))
        events.append(.gap(connection: connection.id, direction, byteCount, packet: packet.number))
    }

    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        events.append(.closed(connection: connection.id, reason, packet: packet?.number))
    }

    func connection(_ id: Int) -> TCPConnection? {
        connections.first { $0.id == id }
    }
}

enum StreamPiece: Equatable {
    case bytes([UInt8], packet: Int)
    case gap(UInt64, packet: Int)
}

/// Feeds scripted segments to a reassembler, numbering packets from 1 and advancing a capture
/// clock by a millisecond per packet unless told otherwise.
final class Harness {
    static let client = Endpoint(address: .v4(0xC0A8_0114), port: 49_312)  // 192.168.1.20
    static let server = Endpoint(address: .v4(0xC0A8_0132), port: 51_826)  // 192.168.1.50, a HAP bridge

    let delegate = RecordingDelegate()
    let reassembler: TCPReassembler<RecordingDelegate>
    private(set) var packetNumber = 0
    private var elapsedNanoseconds: Int64 = 0

    /// The capture time of the last packet sent.
    var clock: Timestamp {
        Timestamp(seconds: 1_700_000_000 + elapsedNanoseconds / 1_000_000_000,
                  nanoseconds: UInt32(elapsedNanoseconds % 1_000_000_000))
    }

    init(limits: TCPReassemblyLimits = TCPReassemblyLimits()) {
        reassembler = TCPReassembler(limits: limits, delegate: delegate)
    }

    var events: [StreamEvent] { delegate.events }

    /// Sends one segment; `ack` sets the ACK flag. Returns the packet number.
    @discardableResult
    func send(
        from source: Endpoint = client, to destination: Endpoint? = nil, seq: UInt32, ack: UInt32? = nil,
        flags: TCPFlags = [], _ payload: [UInt8] = [], missing: Int = 0, after seconds: Int64 = 0
    ) -> Int {
        packetNumber += 1
        elapsedNanoseconds += seconds > 0 ? seconds * 1_000_000_000 : 1_000_000
        let destination = destination ?? (source == Self.client ? Self.server : Self.client)
        let onTheWire = 54 + payload.count + min(max(missing, 0), 65_535)
        let info = PacketInfo(number: packetNumber, timestamp: clock, capturedLength: 54 + payload.count, originalLength: onTheWire)
        payload.withUnsafeBytes { bytes in
            reassembler.process(TCPSegment(
                packet: info, source: source, destination: destination, sequenceNumber: seq,
                acknowledgmentNumber: ack ?? 0, flags: ack == nil ? flags : flags.union(.ack), window: 65_535,
                payload: bytes, missingPayloadCount: missing))
        }
        return packetNumber
    }

    func send(from source: Endpoint = client, to destination: Endpoint? = nil, seq: UInt32, ack: UInt32? = nil, flags: TCPFlags = [], _ text: String, missing: Int = 0, after seconds: Int64 = 0) {
        send(from: source, to: destination, seq: seq, ack: ack, flags: flags, Array(text.utf8), missing: missing, after: seconds)
    }

    /// SYN (client ISN 1000), SYN-ACK (server ISN 5000), ACK: packets 1 to 3. Client data
    /// then starts at 1001, server data at 5001.
    func handshake(clientISN: UInt32 = 1000, serverISN: UInt32 = 5000) {
        send(from: Self.client, seq: clientISN, flags: .syn)
        send(from: Self.server, seq: serverISN, ack: clientISN &+ 1, flags: .syn)
        send(from: Self.client, seq: clientISN &+ 1, ack: serverISN &+ 1)
    }
}

