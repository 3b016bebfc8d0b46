import Capture
import HAPCore
import HAPEvents
import IPTransport

/// The analysis of capture files in several jobs (`--jobs N`): HAP-over-IP connections analysed
/// in parallel, the event stream identical, call for call, to one job's.
///
/// The reader (capture files, packet decoding, TCP reassembly, mDNS, connection recognition and
/// key trials, HAP over CoAP and Bluetooth LE) runs as in one job but records its context calls
/// instead of applying them, and ships each call on a HAP connection (`ConnectionCall`) to the
/// shard of the connection's accessory address, numbered by its place in the reader's log. Each
/// shard makes the calls on its own `HAPConnection`s and records what they did, one batch per
/// call. `CallMerger` replays the reader's log with every handoff replaced by its batch into the
/// one real context and its consumers, checking each fact read across connections
/// (`FactMirror`). At the first read one job would have answered otherwise, the shards stop and
/// the capture is analysed again in one job, whose events after the ones already delivered go to
/// the consumers (one job is deterministic: its first events are those delivered), and the
/// outcome says so (`JobsOutcome.fallback`).
public struct ShardedAnalysis {
    public let configuration: AnalysisConfiguration
    public let consumers: [HAPEventConsumer]
    public let jobs: Int
    /// Whether the shards run on threads of their own (`ThreadedShards`), or on the calling
    /// thread, each call as soon as it is shipped (`SequentialShards`: the same records and
    /// merge, for tests of the ordering without threads). The merger runs on the calling thread.
    public let threads: Bool
    /// How much work crosses between the threads at once: small in tests, so that the pushes,
    /// merges and waits between packets happen on small captures too.
    var batching = ThreadedShards.Batching()

    /// - Parameter consumers: called on the calling thread, one event at a time, between the
    ///   reader's packets.
    public init(configuration: AnalysisConfiguration, consumers: [HAPEventConsumer], jobs: Int, threads: Bool = true) {
        self.configuration = configuration
        self.consumers = consumers
        self.jobs = max(1, jobs)
        self.threads = threads
    }

    /// Analyses every packet of `reader`'s files, then finishes, as `AnalysisPipeline.run` does.
    /// One job reads standard input (it cannot be read twice, which a fallback needs).
    public func run(_ reader: CaptureFileReader, progress: ((CaptureProgress, Int) -> Void)? = nil) -> JobsOutcome {
        guard jobs > 1, !reader.files.contains("-") else {
            return JobsOutcome(errors: AnalysisPipeline(configuration: configuration, consumers: consumers).run(reader, progress: progress), fallback: nil)
        }
        let merger = CallMerger(configuration: configuration, consumers: consumers)
        let readerLog = CallRecorder(recorder: 0)
        let readerContext = AnalysisContext(configuration: configuration, recordingInto: readerLog)
        let errors: [CaptureError]
        if threads {
            guard let shards = ThreadedShards(configuration: configuration, shardCount: jobs, reader: readerLog, merger: merger, batching: batching) else {
                let errors = AnalysisPipeline(configuration: configuration, consumers: consumers).run(reader, progress: progress)
                return JobsOutcome(errors: errors, fallback: JobsOutcome.Fallback(packet: 0, reason: "the system would not start \(jobs - 1) threads"))
            }
            let stage = AnalysisPipeline(context: readerContext, packetObservers: [], shipping: shards)
            errors = stage.read(reader, progress: progress) { shards.packetDone() }
            if merger.conflict == nil { stage.finish() }
            shards.finish(readerSummary: stage.summary)
        } else {
            let shards = SequentialShards(configuration: configuration, shardCount: jobs, reader: readerLog)
            let stage = AnalysisPipeline(context: readerContext, packetObservers: [], shipping: shards)
            errors = stage.read(reader, progress: progress) { shards.merge(into: merger) }
            if merger.conflict == nil {
                stage.finish()
                if shards.merge(into: merger) { merger.finish(readerSummary: stage.summary) }
            }
        }
        guard merger.conflict != nil else { return JobsOutcome(errors: errors, fallback: nil) }
        return fallBack(after: merger, reader, progress: progress)
    }

    /// Analyses the capture again in one job, delivering only the events after those the merger
    /// delivered.
    private func fallBack(after merger: CallMerger, _ reader: CaptureFileReader, progress: ((CaptureProgress, Int) -> Void)?) -> JobsOutcome {
        guard let conflict = merger.conflict else { preconditionFailure("a fallback follows a conflict") }
        let fallback = JobsOutcome.Fallback(packet: conflict.packet, reason: conflict.reason.description)
        let again: CaptureFileReader
        do {
            again = try CaptureFileReader(files: reader.files, filter: reader.filter)
        } catch {
            return JobsOutcome(errors: [error], fallback: fallback)
        }
        let rest = EventsAfter(merger.delivered, consumers)
        return JobsOutcome(errors: AnalysisPipeline(configuration: configuration, consumers: [rest]).run(again, progress: progress), fallback: fallback)
    }
}

/// How a run of several jobs went.
public struct JobsOutcome {
    /// The errors the files gave, as `AnalysisPipeline.run` returns them.
    public let errors: [CaptureError]
    /// Set when the run went on in one job.
    public let fallback: Fallback?

    public struct Fallback: Sendable, CustomStringConvertible {
        /// The latest packet the merger had replayed when it found the conflict.
        public let packet: Int
        public let reason: String

        public var description: String { "fell back to one job at packet #\(packet) because \(reason)" }
    }
}

/// Passes on the events after the first `skipped`: a fallback's one-job run repeats those.
private final class EventsAfter: HAPEventConsumer {
    private var skipped: Int
    private let consumers: [HAPEventConsumer]

    init(_ skipped: Int, _ consumers: [HAPEventConsumer]) {
        self.skipped = skipped
        self.consumers = consumers
    }

    func consume(_ event: HAPEvent) {
        guard skipped == 0 else { return skipped -= 1 }
        for consumer in consumers { consumer.consume(event) }
    }
}
