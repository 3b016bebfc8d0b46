import HAPCore
import HAPEvents
import IPTransport
import Packets

/// The shards of a sharded run on as many threads as jobs: shard 0 on the reader's (the calling
/// thread), each of its calls made as it is shipped, the others on threads of their own, to
/// which the reader ships calls in chunks; the reader merges every shard's batches itself,
/// between packets. `--jobs N` is N threads, each busy, none waking another for every chunk (a
/// reader, N shards and a merger on threads of their own made four threads of two jobs on two
/// cores, each context switch losing the caches, and every event crossed a thread; now shard
/// 0's never do). The reader's thread does more than reading, so shard 0 takes a smaller share
/// of the accessory addresses (`ShardAssignment`). The records, batches and merge are
/// `SequentialShards`'; only where the shards' calls are made differs.
///
/// Each time the reader pushes its chunks it replays its log as far as the shards' batches have
/// come, without waiting; when more than `Batching.windowUnits` are shipped and not replayed, it waits
/// for the batches it needs until half of that is left, so that memory stays bounded however
/// far it could run ahead. It cannot deadlock: the reader waits only for the batch of a call it
/// has pushed (everything shipped is pushed before it waits), and a shard waits only for input.
///
/// Only `Sendable` values cross: `ConnectionCall`s with their bytes, and the shards' recorded
/// calls. Each shard's connections and context are made on its thread and stay there; the
/// merger (the real context and the consumers) stays on the reader's.
final class ThreadedShards: ConnectionShipping {
    let shardCount: Int
    private let reader: CallRecorder
    private let merger: CallMerger
    private var assignment: ShardAssignment
    /// Shard 0, on the reader's thread.
    private var readersShard: ReaderThreadShard
    /// Per shard on a thread of its own (index 0 unused: shard 0 is the reader's), its queues.
    private let inboxes: [BlockingQueue<ShardMessage>]
    private let outboxes: [BlockingQueue<ShardBatches>]
    /// Per shard, the steps not pushed yet, the bytes of their receives in order, their units.
    private var pending: [[ShardStep]]
    private var pendingBytes: [[UInt8]]
    private var pendingUnits: [Int]
    /// The units of every shard's steps not pushed yet.
    private var unpushedUnits = 0
    /// The units shipped to shards whose batches are not replayed yet, pushed or not.
    private var shippedUnits = 0
    /// The reader's calls not replayed yet, and the shards' batches not replayed yet.
    private var log = PendingCalls()
    private var batches: [BatchQueue]
    private var threads: [WorkerThread] = []

    private let batching: Batching

    /// How much work crosses at once, and how much may be in flight.
    struct Batching {
        /// A shard's steps are pushed in chunks of this many, and the reader's log merged when
        /// it holds this many calls, so that the locks are taken per chunk, not per packet.
        var chunk = 512
        /// Units of work shipped and not merged at most (a call, and one per 512 bytes it
        /// carries): about 2 MB of segment bytes in flight.
        var windowUnits = 4_096
    }

    private enum ShardStep: Sendable {
        case call(ConnectionCall)
        case input(String?)
    }

    /// A chunk of a shard's steps with its receives' bytes, one after the other, and its units,
    /// with the shard's calls replayed since the last chunk, for the shard to free; or the end.
    private enum ShardMessage: Sendable {
        case chunk([ShardStep], bytes: [UInt8], units: Int, replayed: [[RecordedCall]])
        case end
    }

    /// Nil when the threads cannot all be started.
    init?(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder, merger: CallMerger, batching: Batching = Batching()) {
        self.shardCount = shardCount
        self.batching = batching
        self.reader = reader
        self.merger = merger
        assignment = ShardAssignment(shardCount: shardCount)
        readersShard = ReaderThreadShard(configuration: configuration, index: 0)
        inboxes = (0..<shardCount).map { _ in BlockingQueue() }
        outboxes = (0..<shardCount).map { _ in BlockingQueue() }
        pending = Array(repeating: [], count: shardCount)
        pendingBytes = Array(repeating: [], count: shardCount)
        pendingUnits = Array(repeating: 0, count: shardCount)
        batches = Array(repeating: BatchQueue(), count: shardCount)
        for index in 1..<shardCount {
            let (inbox, outbox) = (inboxes[index], outboxes[index])
            guard let thread = WorkerThread({ Self.runShard(index, configuration: configuration, inbox: inbox, outbox: outbox) }) else {
                return nil
            }
            threads.append(thread)
        }
    }

    /// A thread could not be started (a process or container limit): the shards started end, and
    /// the run is one job's. After `finish` no thread is left to end.
    deinit {
        for (inbox, _) in zip(inboxes.dropFirst(), threads) { inbox.push([.end]) }
        for thread in threads { thread.join() }
    }

    func shard(of accessory: Endpoint) -> Int {
        assignment.shard(of: accessory)
    }

    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        guard shard > 0 else {
            readersShard.make(call, bytes: bytes)
            return
        }
        pendingBytes[shard].append(contentsOf: bytes)
        let units = 1 + bytes.count >> 9
        pendingUnits[shard] += units
        unpushedUnits += units
        shippedUnits += units
        pending[shard].append(.call(call))
        if pending[shard].count >= batching.chunk { push(shard) }
    }

    func inputChanged(_ name: String?) {
        readersShard.connections.context.currentInput = name
        for shard in 1..<shardCount { pending[shard].append(.input(name)) }
    }

    /// After each packet: pushes what is due and merges what has come back; false once the
    /// merger found a conflict.
    func packetDone() -> Bool {
        if reader.calls.count >= batching.chunk || unpushedUnits >= batching.windowUnits {
            pushEverything()
            merge(waitingAbove: batching.windowUnits)
        }
        return merger.conflict == nil
    }

    /// Pushes every shard's steps, then takes the reader's calls that refer to them into the log
    /// and shard 0's batches into its queue.
    private func pushEverything() {
        for shard in 1..<shardCount { push(shard) }
        log.append(reader.take())
        _ = batches[0].takeReplayed()
        readersShard.queueBatches(into: &batches[0])
    }

    private func push(_ shard: Int) {
        guard !pending[shard].isEmpty else { return }
        inboxes[shard].push([.chunk(pending[shard], bytes: pendingBytes[shard], units: pendingUnits[shard], replayed: batches[shard].takeReplayed())])
        unpushedUnits -= pendingUnits[shard]
        // The next chunk is about as large: one allocation each, not one per doubling.
        let (steps, bytes) = (pending[shard].count, pendingBytes[shard].count)
        pending[shard] = []
        pending[shard].reserveCapacity(steps)
        pendingBytes[shard] = []
        pendingBytes[shard].reserveCapacity(bytes)
        pendingUnits[shard] = 0
    }

    private var unitsInFlight: Int { shippedUnits + log.count }

    /// Replays the log as far as the shards' batches have come; above `limit` units in flight,
    /// waits for each batch it needs until half of `limit` is left (a limit of 0: until the log
    /// is replayed). Call after `pushEverything`: it waits only for what was pushed.
    private func merge(waitingAbove limit: Int) {
        var waits = unitsInFlight > limit
        while true {
            let progress = merger.replay(&log, &batches)
            for shard in 0..<shardCount { shippedUnits -= batches[shard].takeReplayedUnits() }
            guard case .waiting(let shard) = progress else { return }
            // Shard 0's batches are queued with the log that refers to them.
            precondition(shard > 0, "shard 0's batch is made when its call is shipped")
            if waits, unitsInFlight <= limit / 2 { waits = false }
            let arrived = waits ? outboxes[shard].takeAll() : outboxes[shard].takeAllIfAny()
            guard !arrived.isEmpty else { return }
            batches[shard].append(arrived)
        }
    }

    /// Ends the run: everything pushed and replayed, the threads joined; the merger ends the run
    /// with `summary` unless it stopped at a conflict.
    func finish(readerSummary summary: InputSummary) {
        pushEverything()
        for inbox in inboxes.dropFirst() { inbox.push([.end]) }
        merge(waitingAbove: 0)
        for thread in threads { thread.join() }
        threads = []
        if merger.conflict == nil { merger.finish(readerSummary: summary) }
    }

    /// Makes each chunk's calls and sends back their batches, one chunk of batches per chunk.
    private static func runShard(_ index: Int, configuration: AnalysisConfiguration, inbox: BlockingQueue<ShardMessage>, outbox: BlockingQueue<ShardBatches>) {
        let recorder = CallRecorder(recorder: index + 1)
        let shard = ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: recorder))
        while true {
            // The calls replayed are freed with the messages, after the round.
            for message in inbox.takeAll() {
                guard case .chunk(let steps, let bytes, let units, _) = message else { return }
                var ends: [Int] = []
                bytes.withUnsafeBytes { bytes in
                    var offset = 0
                    for step in steps {
                        switch step {
                        case .call(let call):
                            var count = 0
                            if case .receive(_, let byteCount, _, _, _) = call { count = byteCount }
                            shard.make(call, bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
                            offset += count
                            ends.append(recorder.calls.count)
                        case .input(let name):
                            shard.context.currentInput = name
                        }
                    }
                }
                outbox.push([ShardBatches(calls: recorder.take(), ends: ends, units: units)])
            }
        }
    }
}
