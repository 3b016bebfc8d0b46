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

    package init(configuration: AnalysisConfiguration, sink: @escaping (HAPEvent) -> Void) {
        self.configuration = configuration
        self.limits = configuration.limits
        self.keyLogSessions = KeyLogSessions(configuration.keyLog)
        self.databases = AccessoryDatabases(supplied: configuration.suppliedDatabases)
        self.sink = sink
    }

    /// The number of the connection whose first packet is being processed.
    package func nextConnectionID() -> Int {
        connectionCount += 1
        return connectionCount
    }

    package var keyLog: KeyLog { configuration.keyLog }

    package func emit(_ kind: HAPEvent.Kind, _ packet: PacketInfo?) {
        let event = HAPEvent(packet: packet, kind: kind)
        if passesEventsThrough {
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
        order.hold(hold, from: packet)
        passesEventsThrough = order.isPassingThrough
    }

    /// The holder replayed what it held, or gave up.
    package func release(_ hold: CaptureOrderBuffer.Hold) {
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

    package func accessoryLTPK(_ pairingID: String) -> [UInt8]? {
        keyLog.accessoryLongTermPublicKey(pairingID) ?? accessoryLTPKs[pairingID.lowercased()]
    }

    package func controllerLTPK(_ pairingID: String) -> [UInt8]? {
        keyLog.controllerLongTermPublicKey(pairingID) ?? controllerLTPKs[pairingID.lowercased()]
    }

    /// Counts a bound reached; the first time a bound is reached it is also reported as a
    /// problem, so a long capture that hits it a million times says so once.
    package func limitReached(_ limit: LimitName, _ message: String, _ packet: PacketInfo?) {
        summary.limitsReached[limit, default: 0] += 1
        if summary.limitsReached[limit] == 1 {
            emit(.problem(CaptureProblem(.limitReached, message, limit: limit)), packet)
        }
    }

    /// Counts `count` hits of a bound that a layer below counted itself (and so reported no
    /// problem for).
    package func addLimitHits(_ limit: LimitName, _ count: Int) {
        guard count > 0 else { return }
        summary.limitsReached[limit, default: 0] += count
    }
}
