import HAPCore
import HAPEvents
import HTTP1
import Packets
import TCPReassembly

/// Receives reassembled TCP streams, decides which connections speak HAP, and hands their bytes
/// to a `HAPConnection` each.
final class ConnectionTracker: TCPStreamDelegate {
    private let context: AnalysisContext
    private var recognition: ConnectionRecognition
    private var connections: [Int: OpenConnection] = [:]
    /// In a sharded run (`--jobs`), where the HAP connections run: every call on one is shipped.
    private let shipping: ConnectionShipping?
    /// Connections judged not to be HAP, so their bytes are dropped at once.
    private var ignored: Set<Int> = []
    /// The first bytes of connections not judged yet: a request line split over segments is
    /// held until it can be read (at most `ConnectionRecognition.window` bytes), then replayed.
    private var undecided: [Int: [HeldChunk]] = [:]
    /// Connections open before the capture that only a key-log key can mark as HAP.
    private var trials: [Int: SessionKeyTrial] = [:]

    /// What a call other than a receive carries.
    private static var noBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    /// A HAP connection, here or on a shard.
    private enum OpenConnection {
        case here(HAPConnection)
        case shard(Int)
    }

    init(context: AnalysisContext, discovery: DiscoveryTracker, shipping: ConnectionShipping? = nil) {
        self.context = context
        self.shipping = shipping
        self.recognition = ConnectionRecognition(discovery: discovery, knownAccessories: context.keyLogSessions.accessoryEndpoints)
    }

    func tcpConnectionOpened(_ connection: TCPConnection) {
        context.summary.tcpConnections += 1
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        if let hap = connections[connection.id] {
            receive(bytes, direction: direction, packet: packet, on: hap, connection.id, origins: TCPStreamOrigins(connection))
            return
        }
        guard !ignored.contains(connection.id), !bytes.isEmpty else { return }
        if let trial = trials[connection.id] {
            settle(trial, trial.receive(HeldChunk(direction: direction, bytes: Array(bytes), packet: packet)), connection)
            return
        }
        if undecided[connection.id] == nil, ConnectionRecognition.isDecisive(bytes) {
            // The common case: the first segment shows the whole first line; nothing is copied.
            if let hap = start(connection, firstDirection: direction, firstBytes: bytes, packet: packet) {
                receive(bytes, direction: direction, packet: packet, on: hap, connection.id, origins: TCPStreamOrigins(connection))
            } else if let trial = trials[connection.id] {
                settle(trial, trial.receive(HeldChunk(direction: direction, bytes: Array(bytes), packet: packet)), connection)
            }
            return
        }
        var held = undecided.removeValue(forKey: connection.id) ?? []
        held.append(HeldChunk(direction: direction, bytes: Array(bytes), packet: packet))
        let first = Self.firstBytes(of: held)
        let heldBytes = held.reduce(0) { $0 + $1.bytes.count }
        guard ConnectionRecognition.isDecisive(first) || heldBytes >= ConnectionRecognition.window else {
            context.hold(CaptureOrderBuffer.Hold(connection: connection.id, .recognition), from: held[0].packet)
            undecided[connection.id] = held
            return
        }
        decide(connection, held)
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
        if let held = undecided.removeValue(forKey: connection.id) { decide(connection, held) }
        if let trial = trials[connection.id] { settle(trial, trial.finish(), connection) }
        switch connections[connection.id] {
        case .here(let hap): hap.gap(byteCount, direction: direction, packet: packet, origins: TCPStreamOrigins(connection))
        case .shard(let shard):
            shipping?.ship(.gap(connection: connection.id, byteCount: byteCount, direction, packet, TCPStreamOrigins(connection)), carrying: Self.noBytes, toShard: shard)
        case nil: break
        }
    }

    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        if let held = undecided.removeValue(forKey: connection.id) { decide(connection, held) }
        if let trial = trials[connection.id] { settle(trial, trial.finish(), connection) }
        ignored.remove(connection.id)
        switch connections.removeValue(forKey: connection.id) {
        case .here(let hap): hap.close(reason: reason, packet: packet, tcpEnd: TCPConnectionEnd(connection))
        case .shard(let shard): shipping?.ship(.close(connection: connection.id, reason, packet, TCPConnectionEnd(connection)), carrying: Self.noBytes, toShard: shard)
        case nil: break
        }
    }

    private func receive(_ bytes: UnsafeRawBufferPointer, direction: TCPDirection, packet: PacketInfo, on hap: OpenConnection, _ id: Int, origins: TCPStreamOrigins) {
        switch hap {
        case .here(let hap): hap.receive(bytes, direction: direction, packet: packet, origins: origins)
        case .shard(let shard):
            shipping?.ship(.receive(connection: id, byteCount: bytes.count, direction, packet, origins), carrying: bytes, toShard: shard)
        }
    }

    /// Judges a connection on the bytes held for it, and replays them if it speaks HAP.
    private func decide(_ connection: TCPConnection, _ held: [HeldChunk]) {
        guard let first = held.first else { return }
        let firstBytes = Self.firstBytes(of: held)
        let hap = firstBytes.withUnsafeBytes { start(connection, firstDirection: first.direction, firstBytes: $0, packet: first.packet) }
        if let hap {
            replay(held, to: hap, connection.id, origins: TCPStreamOrigins(connection))
        } else if let trial = trials[connection.id] {
            var verdict = SessionKeyTrial.Verdict.undecided
            for chunk in held {
                verdict = trial.receive(chunk)
                guard case .undecided = verdict else { break }
            }
            settle(trial, verdict, connection)
        }
        context.release(CaptureOrderBuffer.Hold(connection: connection.id, .recognition))
    }

    private func replay(_ held: [HeldChunk], to hap: OpenConnection, _ id: Int, origins: TCPStreamOrigins) {
        for chunk in held {
            chunk.bytes.withUnsafeBytes { receive($0, direction: chunk.direction, packet: chunk.packet, on: hap, id, origins: origins) }
        }
    }

    /// Acts on a key trial's verdict: the connection starts as HAP with what the trial held, or
    /// is ignored.
    private func settle(_ trial: SessionKeyTrial, _ verdict: SessionKeyTrial.Verdict, _ connection: TCPConnection) {
        let hold = CaptureOrderBuffer.Hold(connection: connection.id, .keyTrial)
        switch verdict {
        case .undecided:
            if let first = trial.held.first { context.hold(hold, from: first.packet) }
        case .notHAP:
            trials.removeValue(forKey: connection.id)
            ignored.insert(connection.id)
            if trial.reachedCheckBudget, let first = trial.held.first {
                context.limitReached(.frameJoinChecks,
                    "TCP connection \(connection.id): the frame.join-checks limit (\(context.limits.maximumJoinChecks) tag checks) ran out before every key-log session was tried on it, so it may be HAP; SESSION_ENDPOINTS in the key log, or a larger limit, decides",
                    first.packet)
            }
            context.release(hold)
        case .hap(let controllerSends, let session):
            trials.removeValue(forKey: connection.id)
            defer { context.release(hold) }
            guard let first = trial.held.first else { return }
            let hap = open(connection, controllerSends: controllerSends, recognisedBy: .sessionKey, packet: first.packet)
            startedEncryptedBeforeCapture(hap, connection, packet: first.packet, preferring: session)
            replay(trial.held, to: hap, connection.id, origins: TCPStreamOrigins(connection))
        }
    }

    /// Recognises the connection from the first bytes of its first direction and starts its
    /// `HAPConnection`; nil (and the connection ignored from now on) when it is not HAP.
    private func start(_ connection: TCPConnection, firstDirection direction: TCPDirection, firstBytes bytes: UnsafeRawBufferPointer, packet: PacketInfo) -> OpenConnection? {
        guard let (controllerSends, recognisedBy) = recognition.recognise(connection, direction: direction, bytes: bytes) else {
            let candidates = context.keyLogSessions.candidates(
                between: .ip(connection.source(of: direction)), .ip(connection.source(of: direction.reversed)))
            if !connection.handshakeSeen, !candidates.isEmpty, !ConnectionRecognition.startsWithHTTP(bytes) {
                trials[connection.id] = SessionKeyTrial(sessions: candidates, counterLimit: context.limits.maximumCounterSearch,
                                                          checkBudget: context.limits.maximumJoinChecks)
            } else {
                ignored.insert(connection.id)
            }
            return nil
        }
        let hap = open(connection, controllerSends: controllerSends, recognisedBy: recognisedBy, packet: packet)
        if recognisedBy != .hapRequest, !ConnectionRecognition.startsWithHTTP(bytes) {
            startedEncryptedBeforeCapture(hap, connection, packet: packet, preferring: nil)
        }
        return hap
    }

    private func open(_ connection: TCPConnection, controllerSends: TCPDirection, recognisedBy: ConnectionOpenedEvent.Recognition, packet: PacketInfo) -> OpenConnection {
        context.summary.hapConnections += 1
        let accessory = connection.source(of: controllerSends.reversed)
        if recognition.knownAccessories.count < context.limits.maximumMDNSInstances { recognition.knownAccessories.insert(accessory) }
        let facts = TCPConnectionFacts(connection)
        let deviceID = recognition.deviceID(of: accessory)
        let hap: OpenConnection
        if let shipping {
            let shard = shipping.shard(of: accessory)
            shipping.ship(.open(facts, controllerSends: controllerSends, recognisedBy: recognisedBy, deviceID: deviceID, packet: packet), carrying: Self.noBytes, toShard: shard)
            hap = .shard(shard)
        } else {
            hap = .here(HAPConnection(
                tcp: facts, controllerSends: controllerSends, recognisedBy: recognisedBy, deviceID: deviceID, context: context, packet: packet))
        }
        connections[connection.id] = hap
        return hap
    }

    private func startedEncryptedBeforeCapture(_ hap: OpenConnection, _ connection: TCPConnection, packet: PacketInfo, preferring preferred: [UInt8]?) {
        switch hap {
        case .here(let hap): hap.startedEncryptedBeforeCapture(packet: packet, preferring: preferred)
        case .shard(let shard):
            shipping?.ship(.startedEncryptedBeforeCapture(connection: connection.id, packet, preferring: preferred), carrying: Self.noBytes, toShard: shard)
        }
    }

    /// The held bytes of the direction that sent first, in order.
    private static func firstBytes(of held: [HeldChunk]) -> [UInt8] {
        guard let direction = held.first?.direction else { return [] }
        return held.filter { $0.direction == direction }.flatMap(\.bytes)
    }
}
