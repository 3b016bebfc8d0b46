import HAPCore
import IPTransport
import Packets

/// The shards of a sharded run made on the reader's thread, each call as soon as it is shipped:
/// the same records, batches and merge as the threads of `--jobs` make, without threads, so
/// that the ordering is tested on its own and a run can be checked against one job.
final class SequentialShards: ConnectionShipping {
    let shardCount: Int
    private let reader: CallRecorder
    private var shards: [ReaderThreadShard]
    private var log = PendingCalls()
    private var batches: [BatchQueue]
    private var assignment: ShardAssignment

    init(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder) {
        self.shardCount = shardCount
        self.reader = reader
        shards = (0..<shardCount).map { ReaderThreadShard(configuration: configuration, index: $0) }
        batches = Array(repeating: BatchQueue(), count: shardCount)
        assignment = ShardAssignment(shardCount: shardCount)
    }

    func shard(of accessory: Endpoint) -> Int {
        assignment.shard(of: accessory)
    }

    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        shards[shard].make(call, bytes: bytes)
    }

    func inputChanged(_ name: String?) {
        for shard in shards { shard.connections.context.currentInput = name }
    }

    /// Replays what the reader recorded since the last merge, with the batches made for it; false
    /// at a conflict.
    func merge(into merger: CallMerger) -> Bool {
        for shard in 0..<shardCount { shards[shard].queueBatches(into: &batches[shard]) }
        log.append(reader.take())
        defer { for shard in 0..<shardCount { _ = batches[shard].takeReplayed() } }
        switch merger.replay(&log, &batches) {
        case .caughtUp: return true
        case .stopped: return false
        case .waiting: preconditionFailure("every batch the log refers to is made when its call is shipped")
        }
    }
}

/// A shard whose calls are made on the reader's thread as each is shipped (every shard of
/// `SequentialShards`, shard 0 of `ThreadedShards`), with the batches it made that are not
/// queued for the merger yet: their calls one after the other and where each batch ends.
struct ReaderThreadShard {
    let connections: ConnectionShard
    private var calls: [RecordedCall] = []
    private var ends: [Int] = []

    /// Shard `index`, whose records are numbered `index + 1` (0 is the reader's).
    init(configuration: AnalysisConfiguration, index: Int) {
        connections = ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: CallRecorder(recorder: index + 1)))
    }

    /// Makes `call` and keeps what it recorded as one batch.
    mutating func make(_ call: ConnectionCall, bytes: UnsafeRawBufferPointer) {
        connections.make(call, bytes: bytes)
        calls.append(contentsOf: connections.context.recorder!.take())
        ends.append(calls.count)
    }

    /// Hands the batches made since the last time to `queue`, for the merger.
    mutating func queueBatches(into queue: inout BatchQueue) {
        guard !ends.isEmpty else { return }
        queue.append([ShardBatches(calls: calls, ends: ends, units: 0)])
        calls = []
        ends = []
    }
}
