import Packets

/// The reassembler's per-segment work: finding the connection, following it, opening,
/// closing and expiring connections.
///
/// A value held in one stored property of `TCPReassembler` and changed in one access per
/// segment, so that everything below is plain, statically checked struct mutation. Delegate
/// callbacks happen inside that access; that is why the delegate must not call back into
/// the reassembler's processing methods.
struct ReassemblyCore {
    let context: ReassemblyContext
    /// Valid while `TCPReassembler` extends the delegate's lifetime around each call.
    private let target: StreamTarget
    private let maximumConnections: Int
    private let idleTimeout: Double
    private let closedConnectionRetention: Double
    private var table = ConnectionTable()
    private var nextConnectionID = 1
    private let connectionIDs: (() -> Int)?

    /// Limits below their minimum (a negative count or duration, no connections at all) are
    /// raised to it.
    init(limits: TCPReassemblyLimits, delegate: any TCPStreamDelegate, connectionIDs: (() -> Int)? = nil) {
        self.connectionIDs = connectionIDs
        context = ReassemblyContext(maximumBufferedBytes: max(0, limits.maximumBufferedBytes))
        target = StreamTarget(
            delegate: delegate, context: context,
            bufferLimits: StreamBufferLimits(
                maximumBytes: max(0, limits.maximumBufferedBytesPerDirection),
                maximumRanges: max(0, limits.maximumOutOfOrderSegmentsPerDirection)))
        maximumConnections = max(1, limits.maximumConnections)
        idleTimeout = max(0, Self.seconds(limits.idleTimeout))
        closedConnectionRetention = max(0, Self.seconds(limits.closedConnectionRetention))
    }

    mutating func process(_ segment: TCPSegment) {
        context.statistics.segments += 1
        let now = segment.packet.timestamp.timeInterval
        expireIdleConnections(at: now)
        let key = FlowKey(segment.source, segment.destination)
        guard let slot = table.slot(for: key), !forgetIfIdle(slot, at: now) else {
            open(key: key, with: segment)
            return
        }
        let direction = table[slot].connection.direction(from: segment.source)
        if table.order(of: slot) == .closed {
            if segment.flags.contains(.syn) {
                forget(slot)
                open(key: key, with: segment)
            } else {
                absorbAfterClose(segment, slot: slot, direction: direction)
            }
        } else if segment.flags.contains(.syn), !table[slot].isRepeatedHandshake(segment, direction: direction) {
            context.statistics.portReuses += 1
            close(slot, reason: .portReused, packet: segment.packet)
            forget(slot)
            open(key: key, with: segment)
        } else {
            follow(segment, slot: slot, direction: direction)
        }
    }

    mutating func finish() {
        let open = table.openSlots.sorted { table[$0].connection.id < table[$1].connection.id }
        for slot in open {
            close(slot, reason: .captureEnded, packet: nil)
        }
        table.removeAll()
        context.statistics.trackedConnections = 0
    }

    /// `now` is a capture time in seconds (`Timestamp.timeInterval`).
    mutating func expireIdleConnections(at now: Double) {
        while let oldest = table.oldest(.closed), now - table[oldest].lastActivity > closedConnectionRetention {
            forget(oldest)
        }
        while let oldest = table.oldest(.open), now - table[oldest].lastActivity > idleTimeout {
            expire(oldest)
        }
    }

    // MARK: Following

    private mutating func open(key: FlowKey, with segment: TCPSegment) {
        guard let roles = ConnectionRoles(opening: segment, serverPorts: context.serverPorts) else {
            context.statistics.segmentsWithoutConnection += 1
            return
        }
        makeRoomForConnection()
        let id = connectionIDs?() ?? nextConnectionID
        nextConnectionID += 1
        let connection = TCPConnection(
            id: id, client: roles.client, server: roles.server,
            firstPacket: segment.packet, handshakeSeen: roles.fromHandshake)
        let slot = table.insert(ConnectionEntry(connection))
        context.statistics.connectionsOpened += 1
        if !roles.fromHandshake { context.statistics.connectionsPickedUpMidStream += 1 }
        context.statistics.trackedConnections = table.count
        context.statistics.peakTrackedConnections = max(context.statistics.peakTrackedConnections, table.count)
        target.delegate.tcpConnectionOpened(connection)
        follow(segment, slot: slot, direction: connection.direction(from: segment.source))
    }

    private mutating func follow(_ segment: TCPSegment, slot: Int, direction: TCPDirection) {
        table.touch(slot)
        let outcome = table[slot].follow(segment, from: direction, to: target)
        switch outcome {
        case .open:
            break
        case .reset:
            close(slot, reason: .reset, packet: segment.packet)
        case .finished:
            close(slot, reason: .fin, packet: segment.packet)
        }
    }

    /// A segment for a connection that has closed: counted, never delivered.
    private mutating func absorbAfterClose(_ segment: TCPSegment, slot: Int, direction: TCPDirection) {
        table.touch(slot)
        table[slot].absorbAfterClose(segment, from: direction)
    }

    // MARK: Closing

    /// Delivers what each direction still holds, reporting the holes as gaps, and tells the
    /// delegate the connection has ended. A connection ended by FIN or RST stays in the table,
    /// closed, to absorb its last packets; the caller forgets the others.
    private mutating func close(_ slot: Int, reason: TCPCloseReason, packet: PacketInfo?) {
        let connection = table[slot].connection
        table[slot].close(gapPacket: packet ?? connection.lastPacket, to: target)
        connection.closeReason = reason
        if reason == .fin || reason == .reset {
            table.moveToClosed(slot)
        }
        target.delegate.tcpConnectionClosed(connection, reason: reason, packet: packet)
    }

    private mutating func makeRoomForConnection() {
        guard table.count >= maximumConnections else { return }
        context.statistics.connectionLimitHits += 1
        if let closed = table.oldest(.closed) {
            forget(closed)
        } else if let open = table.oldest(.open) {
            context.statistics.connectionsEvicted += 1
            close(open, reason: .evicted, packet: nil)
            forget(open)
        }
    }

    /// Expires the connection in `slot` if it has been idle too long at `now`, which the scan
    /// from the least recently active connection misses when capture timestamps run backwards.
    private mutating func forgetIfIdle(_ slot: Int, at now: Double) -> Bool {
        let idle = now - table[slot].lastActivity
        switch table.order(of: slot) {
        case .closed:
            guard idle > closedConnectionRetention else { return false }
            forget(slot)
        case .open:
            guard idle > idleTimeout else { return false }
            expire(slot)
        }
        return true
    }

    private mutating func expire(_ slot: Int) {
        context.statistics.idleTimeouts += 1
        close(slot, reason: .idleTimeout, packet: nil)
        forget(slot)
    }

    private mutating func forget(_ slot: Int) {
        table.remove(slot)
        context.statistics.trackedConnections = table.count
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
