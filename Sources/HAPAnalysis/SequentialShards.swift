import HAPCore
import IPTransport

/// The shards of a sharded run made on the reader's thread, each call as soon as it is shipped:
/// the same records, batches and merge as the threads of `--jobs` make, without threads, so
/// that the ordering is tested on its own and a run can be checked against one job.
final class SequentialShards: ConnectionShipping {
    let shardCount: Int
    private let reader: CallRecorder
    private let shards: [ConnectionShard]
    /// Per shard, the batches not merged yet, oldest first.
    private var batches: [[[RecordedCall]]]

    init(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder) {
        self.shardCount = shardCount
        self.reader = reader
        shards = (0..<shardCount).map { index in
            ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: CallRecorder(recorder: index + 1)))
        }
        batches = Array(repeating: [], count: shardCount)
    }

    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        shards[shard].make(call, bytes: bytes)
        batches[shard].append(shards[shard].context.recorder!.take())
    }

    func inputChanged(_ name: String?) {
        for shard in shards { shard.context.currentInput = name }
    }

    /// Replays what the reader recorded since the last merge; false at a conflict.
    func merge(into merger: CallMerger) -> Bool {
        merger.replay(readerCalls: reader.take()) { shard in batches[shard].removeFirst()[...] }
    }
}
