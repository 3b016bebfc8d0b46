import Packets

/// A connection and the state the reassembler keeps for it, stored by value in
/// `ConnectionTable` so that following a segment touches no reference-counted object but the
/// public `TCPConnection`.
struct ConnectionEntry {
    let connection: TCPConnection
    let key: FlowKey
    var clientStream = StreamAssembler()
    var serverStream = StreamAssembler()
    /// The latest capture time of the connection's packets, in seconds, for idle expiry. It
    /// never moves back, so timestamps that run backwards cannot expire a connection early.
    private(set) var lastActivity: Double

    init(_ connection: TCPConnection) {
        self.connection = connection
        self.key = FlowKey(connection.client, connection.server)
        self.lastActivity = connection.firstPacket.timestamp.timeInterval
    }

    subscript(direction: TCPDirection) -> StreamAssembler {
        _read {
            switch direction {
            case .clientToServer: yield clientStream
            case .serverToClient: yield serverStream
            }
        }
        _modify {
            switch direction {
            case .clientToServer: yield &clientStream
            case .serverToClient: yield &serverStream
            }
        }
    }

    /// What following a segment did to the connection.
    enum Outcome {
        case open
        case reset
        /// Both streams have been delivered up to their FINs.
        case finished
    }

    /// Follows a segment of this open connection sent in `direction`: the peer's stream takes
    /// its acknowledgment, then the sender's stream its payload.
    mutating func follow(_ segment: TCPSegment, from direction: TCPDirection, to target: StreamTarget) -> Outcome {
        noteActivity(at: segment.packet.timestamp)
        let senderOutput = target.output(connection, direction)
        let peerOutput = target.output(connection, direction.reversed)
        let outcome = switch direction {
        case .clientToServer:
            Self.follow(segment, sender: &clientStream, peer: &serverStream, senderOutput: senderOutput, peerOutput: peerOutput)
        case .serverToClient:
            Self.follow(segment, sender: &serverStream, peer: &clientStream, senderOutput: senderOutput, peerOutput: peerOutput)
        }
        publish(lastPacket: segment.packet)
        return outcome
    }

    private static func follow(
        _ segment: TCPSegment, sender: inout StreamAssembler, peer: inout StreamAssembler,
        senderOutput: DirectionOutput, peerOutput: DirectionOutput
    ) -> Outcome {
        sender.count(segment)
        // The acknowledgment comes first: the peer's bytes it covers were sent before this segment.
        if segment.flags.contains(.ack) {
            peer.acknowledge(segment.acknowledgmentNumber, packet: segment.packet, output: peerOutput)
        }
        if segment.flags.contains(.rst) { return .reset }
        sender.receive(segment, output: senderOutput)
        return sender.hasFinished && peer.hasFinished ? .finished : .open
    }

    /// Counts a segment that arrived after the connection closed.
    mutating func absorbAfterClose(_ segment: TCPSegment, from direction: TCPDirection) {
        noteActivity(at: segment.packet.timestamp)
        self[direction].count(segment)
        self[direction].ignoreAfterClose(segment)
        publish(lastPacket: segment.packet)
    }

    /// Ends both streams (see `StreamAssembler.close`), attributing their last gaps to
    /// `gapPacket`.
    mutating func close(gapPacket: PacketInfo, to target: StreamTarget) {
        clientStream.close(gapPacket: gapPacket, output: target.output(connection, .clientToServer))
        serverStream.close(gapPacket: gapPacket, output: target.output(connection, .serverToClient))
        publish(lastPacket: connection.lastPacket)
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
        return self[direction].isContinued(bySYN: segment.sequenceNumber)
    }

    private mutating func noteActivity(at timestamp: Timestamp) {
        lastActivity = max(lastActivity, timestamp.timeInterval)
    }

    /// Brings the public `TCPConnection` up to date.
    private func publish(lastPacket: PacketInfo) {
        connection.progress = TCPConnection.Progress(
            lastPacket: lastPacket, clientToServer: clientStream.statistics, serverToClient: serverStream.statistics,
            clientToServerOrigin: clientStream.origin, serverToClientOrigin: serverStream.origin)
    }
}
