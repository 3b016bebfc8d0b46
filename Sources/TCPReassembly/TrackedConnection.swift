import Packets

/// A connection and the state the reassembler keeps for it.
final class TrackedConnection {
    let connection: TCPConnection
    let key: FlowKey
    var clientStream = StreamAssembler()
    var serverStream = StreamAssembler()
    /// Where `ConnectionTable` keeps it.
    var slot = 0

    init(_ connection: TCPConnection) {
        self.connection = connection
        self.key = FlowKey(connection.client, connection.server)
    }

    var isClosed: Bool { connection.closeReason != nil }

    func stream(_ direction: TCPDirection) -> StreamAssembler {
        direction == .clientToServer ? clientStream : serverStream
    }

    func updateStream<Result>(_ direction: TCPDirection, _ update: (inout StreamAssembler) -> Result) -> Result {
        switch direction {
        case .clientToServer: update(&clientStream)
        case .serverToClient: update(&serverStream)
        }
    }

    /// Whether a segment with SYN sent in `direction` repeats this connection's handshake,
    /// rather than opening a new connection on the same addresses and ports: the SYN must
    /// come from the client and the SYN-ACK from the server, with the sequence number the
    /// handshake already showed, if it showed one. A connection picked up mid-stream has no
    /// handshake to repeat.
    func isRepeatedHandshake(_ segment: TCPSegment, direction: TCPDirection) -> Bool {
        guard connection.handshakeSeen else { return false }
        let isSYNACK = segment.flags.contains(.ack)
        guard isSYNACK == (direction == .serverToClient) else { return false }
        return stream(direction).isContinued(bySYN: segment.sequenceNumber)
    }

    func publishStatistics() {
        connection.clientToServer = clientStream.statistics
        connection.serverToClient = serverStream.statistics
    }
}
