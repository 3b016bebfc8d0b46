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
        guard let (controllerSends, recognition) = recognise(connection, direction: direction, bytes: bytes) else {
            ignored.insert(connection.id)
            return
        }
        context.summary.hapConnections += 1
        let hap = HAPConnection(tcp: connection, controllerSends: controllerSends, recognisedBy: recognition, context: context, packet: packet)
        connections[connection.id] = hap
        if recognition == .advertisedEndpoint, !Self.startsWithHTTP(bytes) {
            hap.startedEncryptedBeforeCapture(packet: packet)
        }
        hap.receive(bytes, direction: direction, packet: packet)
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
        connections[connection.id]?.gap(byteCount, direction: direction, packet: packet)
    }

    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        ignored.remove(connection.id)
        connections.removeValue(forKey: connection.id)?.close(reason: reason, packet: packet)
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
