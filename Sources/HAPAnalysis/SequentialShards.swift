import HAPCore
import IPTransport
import Packets

/// The shards of a sharded run made on the reader's thread, each call as soon as it is shipped:
/// the same records, batches and merge as the threads of `--jobs` make, without threads, so
/// that the ordering is tested on its own and a run can be checked against one job.
final class SequentialShards: ConnectionShipping {
    let shardCount: Int
    private let reader: CallRecorder
    private let shards: [ConnectionShard]
    /// Per shard, the batches made since the last merge: their calls and where each ends.
    private var madeCalls: [[RecordedCall]]
    private var madeEnds: [[Int]]
    private var log = PendingCalls()
    private var batches: [BatchQueue]
    private var assignment: ShardAssignment

    init(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder) {
        self.shardCount = shardCount
        self.reader = reader
        shards = (0..<shardCount).map { index in
            ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: CallRecorder(recorder: index + 1)))
        }
        madeCalls = Array(repeating: [], count: shardCount)
        madeEnds = Array(repeating: [], count: shardCount)
        batches = Array(repeating: BatchQueue(), count: shardCount)
        assignment = ShardAssignment(shardCount: shardCount)
    }

    func shard(of accessory: Endpoint) -> Int {
        assignment.shard(of: accessory)
    }

    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        shards[shard].make(call, bytes: bytes)
        madeCalls[shard].append(contentsOf: shards[shard].context.recorder!.take())
        madeEnds[shard].append(madeCalls[shard].count)
    }

    func inputChanged(_ name: String?) {
        for shard in shards { shard.context.currentInput = name }
    }

    /// Replays what the reader recorded since the last merge, with the batches made for it; false
    /// at a conflict.
    func merge(into merger: CallMerger) -> Bool {
        for shard in 0..<shardCount where !madeEnds[shard].isEmpty {
            batches[shard].append([ShardBatches(calls: madeCalls[shard], ends: madeEnds[shard], units: 0)])
            madeCalls[shard] = []
            madeEnds[shard] = []
        }
        log.append(reader.take())
        defer { for shard in 0..<shardCount { _ = batches[shard].takeReplayed() } }
        switch merger.replay(&log, &batches) {
        case .caughtUp: return true
        case .stopped: return false
        case .waiting: preconditionFailure("every batch the log refers to is made when its call is shipped")
        }
    }
}
