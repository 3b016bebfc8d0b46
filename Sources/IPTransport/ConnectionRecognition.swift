import HAPEvents
import HTTP1
import Packets
import TCPReassembly

/// Decides whether a TCP connection speaks HAP, and which side is the controller, from the first
/// bytes it carries and what mDNS taught about where accessories listen.
///
/// HAP runs on any port, so connections are recognised by content: the first bytes are a request
/// for a HAP resource (whoever sends it is the controller) or a response; failing that, an
/// endpoint an accessory advertised, or one known from the key log or an earlier connection,
/// marks an encrypted session already under way.
struct ConnectionRecognition {
    /// Enough for any HAP request line's method and target.
    static let window = 512

    let discovery: DiscoveryTracker
    /// Accessory endpoints known without mDNS: those the key log's `SESSION_ENDPOINTS` name, and
    /// those of connections recognised earlier in the run.
    var knownAccessories: Set<Endpoint> = []

    /// The direction in which the controller sends, and why the connection is HAP; nil when it
    /// is not.
    func recognise(_ connection: TCPConnection, direction: TCPDirection, bytes: UnsafeRawBufferPointer) -> (TCPDirection, ConnectionOpenedEvent.Recognition)? {
        let sender = connection.source(of: direction)
        let receiver = connection.source(of: direction.reversed)
        if let target = Self.requestTarget(bytes), HAPRequestTarget(target).endpoint != .unknown {
            return (direction, .hapRequest)
        }
        let advertised = discovery.deviceIDs
        if advertised[receiver] != nil { return (direction, .advertisedEndpoint) }
        if advertised[sender] != nil { return (direction.reversed, .advertisedEndpoint) }
        let ports = discovery.advertisedPorts
        if Self.startsWithResponse(bytes), ports.contains(sender.port) { return (direction.reversed, .advertisedEndpoint) }
        if ports.contains(receiver.port) { return (direction, .advertisedEndpoint) }
        if ports.contains(sender.port) { return (direction.reversed, .advertisedEndpoint) }
        if knownAccessories.contains(receiver) { return (direction, .knownEndpoint) }
        if knownAccessories.contains(sender) { return (direction.reversed, .knownEndpoint) }
        return nil
    }

    /// The device id mDNS tied to the accessory's endpoint.
    func deviceID(of accessory: Endpoint) -> String? {
        discovery.deviceIDs[accessory]
    }

    /// Whether `bytes` are enough to judge by: they end the first line, or cannot be the start
    /// of an HTTP start line at all (binary, such as encrypted frames), or fill the window.
    static func isDecisive<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var count = 0
        for byte in bytes {
            if byte == 0x0A || byte < 0x09 || (byte > 0x0D && byte < 0x20) || byte >= 0x7F { return true }
            count += 1
            if count >= window { return true }
        }
        return false
    }

    /// The target of an HTTP request line at the start of `bytes`, if there is one.
    static func requestTarget(_ bytes: UnsafeRawBufferPointer) -> String? {
        let line = bytes.prefix(window).prefix { $0 != 0x0D && $0 != 0x0A }
        let words = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, !words[0].isEmpty, words[0].allSatisfy({ (0x41...0x5A).contains($0) }),
              words[1].first == UInt8(ascii: "/") else { return nil }
        return String(decoding: words[1], as: UTF8.self)
    }

    static func startsWithHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        requestTarget(bytes) != nil || startsWithResponse(bytes)
    }

    static func startsWithResponse(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefixes = [Array("HTTP/1.".utf8), Array("EVENT/1.".utf8)]
        return prefixes.contains { prefix in bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 } }
    }
}
