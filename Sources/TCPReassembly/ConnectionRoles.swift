import Packets

/// Which endpoint of a new connection is the client, and whether the handshake said so or
/// the roles were guessed.
///
/// The handshake decides when it was captured: the SYN's sender is the client, the SYN-ACK's
/// sender the server. A connection first seen mid-stream is guessed, by the first rule that
/// tells the two ports apart:
/// 1. a port known to be a server's (`TCPReassembler.serverPorts`, e.g. learnt from an mDNS
///    SRV record) is the server's;
/// 2. a port below `lowestEphemeralPort` is a listening port, so the server's;
/// 3. otherwise the destination of the first segment with payload is the server: in HTTP,
///    and so in HAP, the client speaks first. HAP accessories listen on high ports, so rule 2
///    often cannot decide, and a capture that starts with an accessory's EVENT is guessed
///    wrong unless rule 1 knows the accessory's port.
struct ConnectionRoles {
    /// The lowest port of every common ephemeral range (Linux 32768–60999; IANA, BSD, Apple and
    /// Windows 49152–65535): a client's port is not below it.
    static let lowestEphemeralPort: UInt16 = 32_768

    let client: Endpoint
    let server: Endpoint
    let fromHandshake: Bool

    /// The roles for a connection whose first captured segment is `segment`, or nil when that
    /// segment cannot open one: without SYN and without payload there is nothing to follow.
    init?(opening segment: TCPSegment, serverPorts: Set<UInt16>) {
        let destinationIsServer: Bool
        if segment.flags.contains(.syn) {
            // RFC 9293 §3.5: a SYN opens the connection; a SYN-ACK answers one.
            destinationIsServer = !segment.flags.contains(.ack)
            fromHandshake = true
        } else if !segment.payload.isEmpty || segment.missingPayloadCount > 0 {
            destinationIsServer = Self.guessesDestinationIsServer(
                sourcePort: segment.source.port, destinationPort: segment.destination.port, serverPorts: serverPorts)
            fromHandshake = false
        } else {
            return nil
        }
        client = destinationIsServer ? segment.source : segment.destination
        server = destinationIsServer ? segment.destination : segment.source
    }

    static func guessesDestinationIsServer(sourcePort: UInt16, destinationPort: UInt16, serverPorts: Set<UInt16>) -> Bool {
        let sourceIsKnownServer = serverPorts.contains(sourcePort)
        if sourceIsKnownServer != serverPorts.contains(destinationPort) { return !sourceIsKnownServer }
        let sourceListens = sourcePort < lowestEphemeralPort
        if sourceListens != (destinationPort < lowestEphemeralPort) { return !sourceListens }
        return true
    }
}
