import Capture
import HAPAnalysis
import HAPCore
import HAPEvents

/// The whole analysis pipeline over one capture file, with a consumer that takes every event,
/// as `hapscope summary` does.
enum CaptureAnalysis {
    /// Analyses `path` with the key log beside it, in `jobs` jobs (`--jobs`); returns the tally
    /// of events.
    static func run(_ path: String, keyLog: KeyLog, jobs: Int = 1) throws -> EventTally {
        let reader = try CaptureFileReader(files: [path])
        let tally = EventTally()
        // One job is `ShardedAnalysis`'s own path: the plain `AnalysisPipeline`.
        let configuration = AnalysisConfiguration(keyLog: keyLog)
        tally.fallback = ShardedAnalysis(configuration: configuration, consumers: [tally], jobs: jobs).run(reader).fallback
        return tally
    }

    /// The key log the generator wrote beside `capturePath`, or an empty one when there is none.
    static func keyLog(forCapture capturePath: String) throws -> KeyLog {
        let path = CaptureGenerator.keyLogPath(forCapture: capturePath)
        guard let text = try? readText(path) else { return KeyLog() }
        return try KeyLog(parsing: text, source: path)
    }

    /// The plain libpcap loop: every packet read through `CaptureFileReader.next()`, packets and
    /// bytes counted. The ceiling for any analysis of the same file.
    static func countPackets(_ path: String) throws -> (packets: Int, bytes: Int) {
        let reader = try CaptureFileReader(files: [path])
        var packets = 0
        var bytes = 0
        while let packet = try reader.next() {
            packets += 1
            bytes += packet.bytes.count
        }
        return (packets, bytes)
    }
}

/// Consumes every event of an analysis, counting them by kind and keeping what says the
/// capture was not fully understood.
final class EventTally: HAPEventConsumer {
    private(set) var events = 0
    /// Set when a run of several jobs went on in one.
    var fallback: JobsOutcome.Fallback?
    private(set) var httpMessages = 0
    private(set) var encryptedHTTPMessages = 0
    private(set) var characteristicEvents = 0
    private(set) var sessions = 0
    /// Sessions whose both directions the key log opened.
    private(set) var decryptedSessions = 0
    private(set) var pairingExchanges = 0
    private(set) var advertisements = 0
    private(set) var databases = 0
    private(set) var packets = 0
    /// Encrypted frames the analysis followed, and their plaintext bytes, over all connections.
    private(set) var frames = 0
    private(set) var framePlaintextBytes = 0
    /// HAP PDUs the connections of HAP over CoAP and over Bluetooth LE carried.
    private(set) var coapPDUs = 0
    private(set) var blePDUs = 0
    /// Everything that reports a failure: problems, session problems, failed or unmade pairing
    /// checks, undecodable databases, diagnostics on advertisements, pairing messages and
    /// characteristic values.
    private(set) var problemCount = 0
    /// The first few of them, worded, for a report.
    private(set) var firstProblems: [String] = []
    static let keptProblemCount = 20

    private func problem(_ text: @autoclosure () -> String) {
        problemCount += 1
        if firstProblems.count < Self.keptProblemCount { firstProblems.append(text()) }
    }

    func consume(_ event: HAPEvent) {
        events += 1
        switch event.kind {
        case .httpMessage(let message):
            httpMessages += 1
            if message.encrypted { encryptedHTTPMessages += 1 }
        case .characteristic(let activity):
            characteristicEvents += 1
            if let issues = activity.value?.issues, !issues.isEmpty { problem("value issues: \(issues)") }
        case .sessionStarted(let start):
            sessions += 1
            if start.decryptable.count == 2 { decryptedSessions += 1 } else { problem("session not decryptable: \(start.undecryptableBecause.map { "\($0)" } ?? "")") }
        case .pairingExchange(let exchange):
            pairingExchanges += 1
            if !exchange.succeeded { problem("pairing \(exchange.procedure) \(exchange.outcome)") }
            for check in exchange.checks where check.outcome != .passed { problem("check \(check)") }
        case .pairingMessage(let message):
            if !message.diagnostics.isEmpty { problem("pairing message diagnostics: \(message.diagnostics)") }
        case .advertisement(let advertisement):
            advertisements += 1
            if !advertisement.messageDiagnostics.isEmpty { problem("mDNS diagnostics: \(advertisement.messageDiagnostics)") }
        case .bleAdvertisement:
            advertisements += 1
        case .accessoryDatabase(let database):
            databases += 1
            if let error = database.error { problem("database: \(error)") }
        case .problem(let reported):
            problem("\(reported.kind): \(reported.message)")
        case .sessionProblem(let reported):
            problem("session \(reported.kind): \(reported.message)")
        case .sessionJoined(let join):
            if case .notJoined(let reason) = join.outcome { problem("session not joined: \(reason)") }
        case .inputEnded(let summary):
            packets = summary.packets
        case .connectionClosed(let summary):
            for statistics in summary.frames.values {
                frames += statistics.frames
                framePlaintextBytes += statistics.plaintextBytes
            }
            switch summary.carried {
            case .coap(let counters): coapPDUs += counters.pdus
            case .bluetoothLE(let counters): blePDUs += counters.hapPDUs
            case .http: break
            }
        case .inputOpened, .mdnsQuery, .connectionOpened, .decryptedData, .databaseDump:
            break
        }
    }
}
