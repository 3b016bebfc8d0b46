import HAPEvents
import Packets
import WireParsing

/// State shared by every transport of one analysis: the user's keys and settings, what earlier
/// connections taught (long-term keys, accessory databases), the run's totals, and the one
/// place events leave the analysis.
package final class AnalysisContext {
    package let configuration: AnalysisConfiguration
    /// The configuration's limits, stored: a computed property returned a copy of the whole
    /// structure to every caller in another module, once per message.
    package let limits: AnalysisLimits
    /// Long-term public keys learned from decrypted pair-setups in this run, by pairing id
    /// (lower-cased: HAP compares identifiers without regard to case).
    package var accessoryLTPKs: [String: [UInt8]] = [:]
    package var controllerLTPKs: [String: [UInt8]] = [:]
    package var databases: AccessoryDatabases
    /// The input file being read, once one is open.
    package var currentInput: String?
    /// The key log's sessions, for connections whose pair-verify is not in the capture.
    package var keyLogSessions: KeyLogSessions
    package var summary = InputSummary()
    /// Connections numbered so far: one counter for every transport (TCP, CoAP, Bluetooth LE),
    /// so that a connection's number is its own in the whole run and follows first packets.
    private var connectionCount = 0
    private var order = CaptureOrderBuffer()
    /// `order.isPassingThrough`, kept after each change of `order`: an event emitted while
    /// nothing is held reads this flag alone, whose accesses need no run-time exclusivity check,
    /// where an access to the buffer itself is checked.
    private var passesEventsThrough = true
    private let sink: (HAPEvent) -> Void
    /// In a sharded run (`--jobs`), where this context's calls are kept instead of applied; its
    /// facts (long-term keys, databases, claimed sessions) are then its own connections' only,
    /// and every read and write of them is kept too, for the merger to check.
    package let recorder: CallRecorder?

    package init(configuration: AnalysisConfiguration, sink: @escaping (HAPEvent) -> Void) {
        self.configuration = configuration
        self.limits = configuration.limits
        self.keyLogSessions = KeyLogSessions(configuration.keyLog)
        self.databases = AccessoryDatabases(supplied: configuration.suppliedDatabases)
        self.sink = sink
        recorder = nil
    }

    /// A context of one part of a sharded run (the reader, or a shard), whose calls `recorder`
    /// keeps.
    package init(configuration: AnalysisConfiguration, recordingInto recorder: CallRecorder) {
        self.configuration = configuration
        self.limits = configuration.limits
        self.keyLogSessions = KeyLogSessions(configuration.keyLog, recorder: recorder)
        self.databases = AccessoryDatabases(supplied: configuration.suppliedDatabases, recorder: recorder)
        self.sink = { _ in }
        self.recorder = recorder
    }

    /// The number of the connection whose first packet is being processed.
    package func nextConnectionID() -> Int {
        connectionCount += 1
        return connectionCount
    }

    package var keyLog: KeyLog { configuration.keyLog }

    package func emit(_ kind: HAPEvent.Kind, _ packet: PacketInfo?) {
        emit(HAPEvent(packet: packet, kind: kind))
    }

    /// Emits an event already made: a sharded run's merger replays those the shards made.
    package func emit(_ event: HAPEvent) {
        if let recorder {
            recorder.record(.emit(event))
        } else if passesEventsThrough {
            sink(event)
        } else {
            let leaving = order.take(event)
            passesEventsThrough = order.isPassingThrough
            leaving.forEach(sink)
        }
    }

    /// A connection holds packets from `packet` on, to replay them: events after it wait, so
    /// that the stream stays in capture order (`CaptureOrderBuffer`).
    package func hold(_ hold: CaptureOrderBuffer.Hold, from packet: PacketInfo) {
        if let recorder { return recorder.record(.hold(hold, from: packet)) }
        order.hold(hold, from: packet)
        passesEventsThrough = order.isPassingThrough
    }

    /// The holder replayed what it held, or gave up.
    package func release(_ hold: CaptureOrderBuffer.Hold) {
        if let recorder { return recorder.record(.release(hold)) }
        let leaving = order.release(hold)
        passesEventsThrough = order.isPassingThrough
        leaving.forEach(sink)
    }

    /// The run is ending: whatever still waits leaves.
    package func drainHeldEvents() {
        let leaving = order.drain()
        passesEventsThrough = order.isPassingThrough
        leaving.forEach(sink)
    }

    /// The run's end: whatever still waits leaves, then the totals. In a sharded run the merger
    /// ends the run, once every part's calls are replayed.
    package func endRun() {
        guard recorder == nil else { return }
        drainHeldEvents()
        emit(.inputEnded(summary), nil)
    }

    package func accessoryLTPK(_ pairingID: String) -> [UInt8]? {
        if let logged = keyLog.accessoryLongTermPublicKey(pairingID) { return logged }
        let learned = accessoryLTPKs[pairingID.lowercased()]
        recorder?.record(.fact(.readLTPK(.accessory, pairingID: pairingID.lowercased(), answer: learned)))
        return learned
    }

    package func controllerLTPK(_ pairingID: String) -> [UInt8]? {
        if let logged = keyLog.controllerLongTermPublicKey(pairingID) { return logged }
        let learned = controllerLTPKs[pairingID.lowercased()]
        recorder?.record(.fact(.readLTPK(.controller, pairingID: pairingID.lowercased(), answer: learned)))
        return learned
    }

    /// HAP: Pair Setup M6 — the accessory's long-term public key, for later pair-verifies.
    package func learnAccessoryLTPK(_ pairingID: String, _ key: [UInt8]) {
        accessoryLTPKs[pairingID.lowercased()] = key
        recorder?.record(.fact(.learnedLTPK(.accessory, pairingID: pairingID.lowercased(), key: key)))
    }

    /// HAP: Pair Setup M5 — the controller's long-term public key.
    package func learnControllerLTPK(_ pairingID: String, _ key: [UInt8]) {
        controllerLTPKs[pairingID.lowercased()] = key
        recorder?.record(.fact(.learnedLTPK(.controller, pairingID: pairingID.lowercased(), key: key)))
    }

    /// Counts a bound reached; the first time a bound is reached it is also reported as a
    /// problem, so a long capture that hits it a million times says so once.
    package func limitReached(_ limit: LimitName, _ message: String, _ packet: PacketInfo?) {
        if let recorder { return recorder.record(.limitReached(limit, message, packet)) }
        summary.limitsReached[limit, default: 0] += 1
        if summary.limitsReached[limit] == 1 {
            emit(.problem(CaptureProblem(.limitReached, message, limit: limit)), packet)
        }
    }

    /// Counts `count` hits of a bound that a layer below counted itself (and so reported no
    /// problem for).
    package func addLimitHits(_ limit: LimitName, _ count: Int) {
        guard count > 0 else { return }
        if let recorder { return recorder.record(.addLimitHits(limit, count)) }
        summary.limitsReached[limit, default: 0] += count
    }
}
