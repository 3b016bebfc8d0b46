import Packets

/// Follows TCP connections through a capture and hands each direction's byte stream to a
/// delegate, in order, exactly once, with every stretch that was never captured reported as
/// an explicit gap.
///
/// Feed it every TCP segment in capture order with `process(_:)` and call `finish()` at the
/// end of the input. Capture timestamps drive idle expiry; a live capture with no traffic
/// can call `expireIdleConnections(at:)` from a timer. docs/reassembly.md describes how roles
/// are decided, the overlap policy, when gaps are declared, the limits and the statistics.
///
/// The in-order path copies nothing: a segment that continues its stream is handed to the
/// delegate straight from the packet buffer. Only bytes that arrive ahead of a hole are
/// copied, to wait for it, within `TCPReassemblyLimits`.
///
/// The delegate is held `unowned`: it usually owns the reassembler, and must outlive it.
/// Delegate methods may read the connection and the reassembler's statistics but must not
/// call `process`, `finish` or `expireIdleConnections` from inside a callback.
public final class TCPReassembler<Delegate: TCPStreamDelegate> {
    public let limits: TCPReassemblyLimits
    public unowned let delegate: Delegate
    /// Ports known to be servers' ports, for guessing the roles of connections first seen
    /// mid-stream (see `ConnectionRoles`). Add an accessory's port as soon as it is known,
    /// from its mDNS SRV record or from the user.
    public var serverPorts: Set<UInt16> = []
    public fileprivate(set) var statistics = TCPReassemblyStatistics()

    fileprivate let streamBufferLimits: StreamBufferLimits
    private let idleTimeout: Double
    private let closedConnectionRetention: Double
    private var connections = ConnectionTable()
    private var nextConnectionID = 1

    /// Limits below their minimum (a negative count or duration, no connections at all) are
    /// raised to it.
    public init(limits: TCPReassemblyLimits = TCPReassemblyLimits(), delegate: Delegate) {
        self.limits = limits
        self.delegate = delegate
        streamBufferLimits = StreamBufferLimits(
            maximumBytes: max(0, limits.maximumBufferedBytesPerDirection),
            maximumRanges: max(0, limits.maximumOutOfOrderSegmentsPerDirection))
        idleTimeout = max(0, Self.seconds(limits.idleTimeout))
        closedConnectionRetention = max(0, Self.seconds(limits.closedConnectionRetention))
    }

    /// Takes the next TCP segment of the capture.
    public func process(_ segment: TCPSegment) {
        statistics.segments += 1
        let now = segment.packet.timestamp
        expireIdleConnections(at: now)
        let key = FlowKey(segment.source, segment.destination)
        guard let tracked = connections[key], !forgetIfIdle(tracked, at: now) else {
            open(key: key, with: segment)
            return
        }
        let direction = tracked.connection.direction(from: segment.source)
        if tracked.isClosed {
            if segment.flags.contains(.syn) {
                forget(tracked)
                open(key: key, with: segment)
            } else {
                absorbAfterClose(segment, on: tracked, direction: direction)
            }
        } else if segment.flags.contains(.syn), !tracked.isRepeatedHandshake(segment, direction: direction) {
            statistics.portReuses += 1
            close(tracked, reason: .portReused, packet: segment.packet)
            forget(tracked)
            open(key: key, with: segment)
        } else {
            follow(segment, on: tracked, direction: direction)
        }
    }

    /// Ends the input: delivers what can be delivered, reports the holes that remain as gaps,
    /// and closes every open connection with `.captureEnded`, in the order they were opened.
    public func finish() {
        for tracked in connections.openConnections.sorted(by: { $0.connection.id < $1.connection.id }) {
            close(tracked, reason: .captureEnded, packet: nil)
        }
        connections.removeAll()
        statistics.trackedConnections = 0
    }

    /// Closes the open connections idle for longer than `limits.idleTimeout` at `now`, and
    /// forgets closed ones older than `limits.closedConnectionRetention`. `process` calls it
    /// for every segment; call it from a timer when a live capture is quiet.
    public func expireIdleConnections(at now: Timestamp) {
        while let oldest = connections.oldest(.closed), now - oldest.connection.lastPacket.timestamp > closedConnectionRetention {
            forget(oldest)
        }
        while let oldest = connections.oldest(.open), now - oldest.connection.lastPacket.timestamp > idleTimeout {
            expire(oldest)
        }
    }

    // MARK: Connections

    private func open(key: FlowKey, with segment: TCPSegment) {
        guard let roles = ConnectionRoles(opening: segment, serverPorts: serverPorts) else {
            statistics.segmentsWithoutConnection += 1
            return
        }
        makeRoomForConnection()
        let connection = TCPConnection(
            id: nextConnectionID, client: roles.client, server: roles.server,
            firstPacket: segment.packet, handshakeSeen: roles.fromHandshake)
        nextConnectionID += 1
        let tracked = TrackedConnection(connection)
        connections.insert(tracked)
        statistics.connectionsOpened += 1
        if !roles.fromHandshake { statistics.connectionsPickedUpMidStream += 1 }
        statistics.trackedConnections = connections.count
        statistics.peakTrackedConnections = max(statistics.peakTrackedConnections, connections.count)
        delegate.tcpConnectionOpened(connection)
        follow(segment, on: tracked, direction: connection.direction(from: segment.source))
    }

    private func follow(_ segment: TCPSegment, on tracked: TrackedConnection, direction: TCPDirection) {
        connections.touch(tracked)
        let connection = tracked.connection
        connection.lastPacket = segment.packet
        tracked.updateStream(direction) { $0.count(segment) }
        // The acknowledgment comes first: the peer's bytes it covers were sent before this segment.
        if segment.flags.contains(.ack) {
            let output = DirectionOutput(reassembler: self, connection: connection, direction: direction.reversed)
            tracked.updateStream(direction.reversed) {
                $0.acknowledge(segment.acknowledgmentNumber, packet: segment.packet, output: output)
            }
        }
        if segment.flags.contains(.rst) {
            close(tracked, reason: .reset, packet: segment.packet)
            return
        }
        let output = DirectionOutput(reassembler: self, connection: connection, direction: direction)
        tracked.updateStream(direction) { $0.receive(segment, output: output) }
        tracked.publishStatistics()
        if tracked.clientStream.hasFinished, tracked.serverStream.hasFinished {
            close(tracked, reason: .fin, packet: segment.packet)
        }
    }

    /// A segment for a connection that has closed: counted, never delivered.
    private func absorbAfterClose(_ segment: TCPSegment, on tracked: TrackedConnection, direction: TCPDirection) {
        connections.touch(tracked)
        tracked.connection.lastPacket = segment.packet
        tracked.updateStream(direction) {
            $0.count(segment)
            $0.ignoreAfterClose(segment)
        }
        tracked.publishStatistics()
    }

    /// Delivers what each direction still holds, reporting the holes as gaps, and tells the
    /// delegate the connection has ended. A connection ended by FIN or RST stays in the table,
    /// closed, to absorb its last packets; the caller removes the others.
    private func close(_ tracked: TrackedConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        let connection = tracked.connection
        let gapPacket = packet ?? connection.lastPacket
        for direction in [TCPDirection.clientToServer, .serverToClient] {
            let output = DirectionOutput(reassembler: self, connection: connection, direction: direction)
            tracked.updateStream(direction) { $0.close(gapPacket: gapPacket, output: output) }
        }
        tracked.publishStatistics()
        connection.closeReason = reason
        if reason == .fin || reason == .reset {
            connections.moveToClosed(tracked)
        }
        delegate.tcpConnectionClosed(connection, reason: reason, packet: packet)
    }

    private func makeRoomForConnection() {
        guard connections.count >= max(1, limits.maximumConnections) else { return }
        statistics.connectionLimitHits += 1
        if let closed = connections.oldest(.closed) {
            forget(closed)
        } else if let open = connections.oldest(.open) {
            statistics.connectionsEvicted += 1
            close(open, reason: .evicted, packet: nil)
            forget(open)
        }
    }

    /// Expires `tracked` if it has been idle too long at `now`, which the scan from the least
    /// recently active connection misses when capture timestamps run backwards.
    private func forgetIfIdle(_ tracked: TrackedConnection, at now: Timestamp) -> Bool {
        let idle = now - tracked.connection.lastPacket.timestamp
        if tracked.isClosed {
            guard idle > closedConnectionRetention else { return false }
            forget(tracked)
        } else {
            guard idle > idleTimeout else { return false }
            expire(tracked)
        }
        return true
    }

    private func expire(_ tracked: TrackedConnection) {
        statistics.idleTimeouts += 1
        close(tracked, reason: .idleTimeout, packet: nil)
        forget(tracked)
    }

    private func forget(_ tracked: TrackedConnection) {
        connections.remove(tracked)
        statistics.trackedConnections = connections.count
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Connects one direction's `StreamAssembler` to the delegate, and to the buffer budget and
/// counters the reassembler shares among all connections.
private struct DirectionOutput<Delegate: TCPStreamDelegate>: StreamAssemblerOutput {
    let reassembler: TCPReassembler<Delegate>
    let connection: TCPConnection
    let direction: TCPDirection

    var bufferLimits: StreamBufferLimits { reassembler.streamBufferLimits }

    func deliver(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        reassembler.delegate.tcpStream(connection, direction: direction, didReceive: bytes, packet: packet)
    }

    func skipGap(of byteCount: UInt64, packet: PacketInfo) {
        reassembler.delegate.tcpStream(connection, direction: direction, didSkipGapOf: byteCount, packet: packet)
    }

    func canBuffer(_ byteCount: Int) -> Bool {
        reassembler.statistics.bufferedBytes + byteCount <= reassembler.limits.maximumBufferedBytes
    }

    func didBuffer(_ byteCount: Int) {
        reassembler.statistics.bufferedBytes += byteCount
        reassembler.statistics.peakBufferedBytes = max(reassembler.statistics.peakBufferedBytes, reassembler.statistics.bufferedBytes)
    }

    func didRelease(_ byteCount: Int) {
        reassembler.statistics.bufferedBytes -= byteCount
    }

    func didReach(_ limit: StreamBufferLimit) {
        switch limit {
        case .bytesPerDirection: reassembler.statistics.bufferedBytesPerDirectionLimitHits += 1
        case .bytesInTotal: reassembler.statistics.bufferedBytesLimitHits += 1
        case .rangesPerDirection: reassembler.statistics.outOfOrderSegmentsLimitHits += 1
        }
    }
}
