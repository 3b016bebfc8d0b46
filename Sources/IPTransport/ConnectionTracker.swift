import HAPCore
import HAPEvents
import HTTP1
import Packets
import TCPReassembly

/// Receives reassembled TCP streams, decides which connections speak HAP, and hands their bytes
/// to a `HAPConnection` each.
final class ConnectionTracker: TCPStreamDelegate {
    private let context: AnalysisContext
    private let recognition: ConnectionRecognition
    private var connections: [Int: HAPConnection] = [:]
    /// Connections judged not to be HAP, so their bytes are dropped at once.
    private var ignored: Set<Int> = []
    /// The first bytes of connections not judged yet: a request line split over segments is
    /// held until it can be read (at most `ConnectionRecognition.window` bytes), then replayed.
    private var undecided: [Int: [HeldChunk]] = [:]

    private struct HeldChunk {
        let direction: TCPDirection
        let bytes: [UInt8]
        let packet: PacketInfo
    }

    init(context: AnalysisContext, discovery: DiscoveryTracker) {
        self.context = context
        self.recognition = ConnectionRecognition(discovery: discovery)
    }

    func tcpConnectionOpened(_ connection: TCPConnection) {
        context.summary.tcpConnections += 1
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        if let hap = connections[connection.id] {
            hap.receive(bytes, direction: direction, packet: packet)
            return
        }
        guard !ignored.contains(connection.id), !bytes.isEmpty else { return }
        if undecided[connection.id] == nil, ConnectionRecognition.isDecisive(bytes) {
            // The common case: the first segment shows the whole first line; nothing is copied.
            start(connection, firstDirection: direction, firstBytes: bytes, packet: packet)?.receive(bytes, direction: direction, packet: packet)
            return
        }
        var held = undecided.removeValue(forKey: connection.id) ?? []
        held.append(HeldChunk(direction: direction, bytes: Array(bytes), packet: packet))
        let first = Self.firstBytes(of: held)
        let heldBytes = held.reduce(0) { $0 + $1.bytes.count }
        guard ConnectionRecognition.isDecisive(first) || heldBytes >= ConnectionRecognition.window else {
            undecided[connection.id] = held
            return
        }
        decide(connection, held)
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
        if let held = undecided.removeValue(forKey: connection.id) { decide(connection, held) }
        connections[connection.id]?.gap(byteCount, direction: direction, packet: packet)
    }

    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        if let held = undecided.removeValue(forKey: connection.id) { decide(connection, held) }
        ignored.remove(connection.id)
        connections.removeValue(forKey: connection.id)?.close(reason: reason, packet: packet)
    }

    /// Judges a connection on the bytes held for it, and replays them if it speaks HAP.
    private func decide(_ connection: TCPConnection, _ held: [HeldChunk]) {
        guard let first = held.first else { return }
        let firstBytes = Self.firstBytes(of: held)
        let hap = firstBytes.withUnsafeBytes { start(connection, firstDirection: first.direction, firstBytes: $0, packet: first.packet) }
        guard let hap else { return }
        for chunk in held {
            chunk.bytes.withUnsafeBytes { hap.receive($0, direction: chunk.direction, packet: chunk.packet) }
        }
    }

    /// Recognises the connection from the first bytes of its first direction and starts its
    /// `HAPConnection`; nil (and the connection ignored from now on) when it is not HAP.
    private func start(_ connection: TCPConnection, firstDirection direction: TCPDirection, firstBytes bytes: UnsafeRawBufferPointer, packet: PacketInfo) -> HAPConnection? {
        guard let (controllerSends, recognisedBy) = recognition.recognise(connection, direction: direction, bytes: bytes) else {
            ignored.insert(connection.id)
            return nil
        }
        context.summary.hapConnections += 1
        let hap = HAPConnection(
            tcp: connection, controllerSends: controllerSends, recognisedBy: recognisedBy,
            deviceID: recognition.deviceID(of: connection.source(of: controllerSends.reversed)), context: context, packet: packet)
        connections[connection.id] = hap
        if recognisedBy == .advertisedEndpoint, !ConnectionRecognition.startsWithHTTP(bytes) {
            hap.startedEncryptedBeforeCapture(packet: packet)
        }
        return hap
    }

    /// The held bytes of the direction that sent first, in order.
    private static func firstBytes(of held: [HeldChunk]) -> [UInt8] {
        guard let direction = held.first?.direction else { return [] }
        return held.filter { $0.direction == direction }.flatMap(\.bytes)
    }
}
