import HTTP1
import Packets
import TCPReassembly

/// Receives reassembled TCP streams, decides which connections speak HAP, and hands their bytes
/// to a `HAPConnection` each.
final class ConnectionTracker: TCPStreamDelegate {
    private let context: AnalysisContext
    private var connections: [Int: HAPConnection] = [:]
    /// Connections judged not to be HAP, so their bytes are dropped at once.
    private var ignored: Set<Int> = []
    /// The first bytes of connections not judged yet: a request line split over segments is
    /// held until it can be read (at most `recognitionWindow` bytes), then replayed.
    private var undecided: [Int: [HeldChunk]] = [:]

    /// Enough for any HAP request line's method and target.
    static let recognitionWindow = 512

    private struct HeldChunk {
        let direction: TCPDirection
        let bytes: [UInt8]
        let packet: PacketInfo
    }

    init(context: AnalysisContext) {
        self.context = context
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
        if undecided[connection.id] == nil, Self.isDecisive(bytes) {
            // The common case: the first segment shows the whole first line; nothing is copied.
            start(connection, firstDirection: direction, firstBytes: bytes, packet: packet)?.receive(bytes, direction: direction, packet: packet)
            return
        }
        var held = undecided.removeValue(forKey: connection.id) ?? []
        held.append(HeldChunk(direction: direction, bytes: Array(bytes), packet: packet))
        let first = Self.firstBytes(of: held)
        let heldBytes = held.reduce(0) { $0 + $1.bytes.count }
        guard Self.isDecisive(first) || heldBytes >= Self.recognitionWindow else {
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
        guard let (controllerSends, recognition) = recognise(connection, direction: direction, bytes: bytes) else {
            ignored.insert(connection.id)
            return nil
        }
        context.summary.hapConnections += 1
        let hap = HAPConnection(tcp: connection, controllerSends: controllerSends, recognisedBy: recognition, context: context, packet: packet)
        connections[connection.id] = hap
        if recognition == .advertisedEndpoint, !Self.startsWithHTTP(bytes) {
            hap.startedEncryptedBeforeCapture(packet: packet)
        }
        return hap
    }

    /// The held bytes of the direction that sent first, in order.
    private static func firstBytes(of held: [HeldChunk]) -> [UInt8] {
        guard let direction = held.first?.direction else { return [] }
        return held.filter { $0.direction == direction }.flatMap(\.bytes)
    }

    /// Whether `bytes` are enough to judge by: they end the first line, or cannot be the start
    /// of an HTTP start line at all (binary, such as encrypted frames), or fill the window.
    private static func isDecisive<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var count = 0
        for byte in bytes {
            if byte == 0x0A || byte < 0x09 || (byte > 0x0D && byte < 0x20) || byte >= 0x7F { return true }
            count += 1
            if count >= recognitionWindow { return true }
        }
        return false
    }

    /// HAP runs on any port, so connections are recognised by content: the first bytes are a
    /// request for a HAP endpoint (whoever sends it is the controller) or a response; failing
    /// that, an endpoint an accessory advertised over mDNS marks an encrypted session already
    /// under way.
    private func recognise(_ connection: TCPConnection, direction: TCPDirection, bytes: UnsafeRawBufferPointer) -> (TCPDirection, ConnectionEvent.Recognition)? {
        let sender = connection.source(of: direction)
        let receiver = connection.source(of: direction.reversed)
        if let target = Self.requestTarget(bytes), HAPRequestTarget(target).endpoint != .unknown {
            return (direction, .hapRequest)
        }
        let advertised = context.discovery.deviceIDs
        if advertised[receiver] != nil { return (direction, .advertisedEndpoint) }
        if advertised[sender] != nil { return (direction.reversed, .advertisedEndpoint) }
        let ports = context.discovery.advertisedPorts
        if Self.startsWithResponse(bytes), ports.contains(sender.port) { return (direction.reversed, .advertisedEndpoint) }
        if ports.contains(receiver.port) { return (direction, .advertisedEndpoint) }
        if ports.contains(sender.port) { return (direction.reversed, .advertisedEndpoint) }
        return nil
    }

    /// The target of an HTTP request line at the start of `bytes`, if there is one.
    private static func requestTarget(_ bytes: UnsafeRawBufferPointer) -> String? {
        let line = bytes.prefix(512).prefix { $0 != 0x0D && $0 != 0x0A }
        let words = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, !words[0].isEmpty, words[0].allSatisfy({ (0x41...0x5A).contains($0) }),
              words[1].first == UInt8(ascii: "/") else { return nil }
        return String(decoding: words[1], as: UTF8.self)
    }

    private static func startsWithHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        requestTarget(bytes) != nil || startsWithResponse(bytes)
    }

    private static func startsWithResponse(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefixes = [Array("HTTP/1.".utf8), Array("EVENT/1.".utf8)]
        return prefixes.contains { prefix in bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 } }
    }
}
