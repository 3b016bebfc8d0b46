import HAPCore
import HAPEvents
import IPTransport

/// The shards of a sharded run on threads of their own, and the merger on another: the reader
/// (the calling thread) ships calls in chunks to each shard's queue, and its log in chunks to the
/// merger, which replays it with each handoff replaced by the batch its shard sent back. The
/// records, batches and merge are `SequentialShards`'; only where they are made differs.
///
/// Only `Sendable` values cross: `ConnectionCall`s, recorded calls and summaries. Each shard's
/// connections and context are made on its thread and stay there; the merger (the real context
/// and the consumers) is handed to its thread at the start and back at `finish`, after the join.
final class ThreadedShards: ConnectionShipping {
    let shardCount: Int
    private let reader: CallRecorder
    private let window = HandoffWindow(limit: ThreadedShards.windowUnits)
    private let inboxes: [BlockingQueue<ShardMessage>]
    private let outboxes: [BlockingQueue<[RecordedCall]>]
    private let log = BlockingQueue<LogMessage>()
    /// Per shard, the messages not pushed yet.
    private var pending: [[ShardMessage]]
    private var pendingUnits = 0
    private var threads: [WorkerThread] = []
    private let merger: CallMerger

    /// Units of work shipped and not merged at most (a call, and one per 512 bytes it carries):
    /// about 8 MB of segment bytes in flight.
    static let windowUnits = 16_384
    /// A shard's messages are pushed in chunks of this many; the reader's log when it holds this
    /// many calls, so that the locks are taken per chunk, not per packet.
    static let chunk = 128

    private enum ShardMessage: Sendable {
        case call(ConnectionCall)
        case input(String?)
        case end
    }

    private enum LogMessage: Sendable {
        case calls([RecordedCall], units: Int)
        case end(InputSummary)
    }

    /// Hands the merger to a thread that alone uses it until `finish` joins it.
    private struct MergerTransfer: @unchecked Sendable {
        let merger: CallMerger
    }

    init(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder, merger: CallMerger) {
        self.shardCount = shardCount
        self.reader = reader
        self.merger = merger
        inboxes = (0..<shardCount).map { _ in BlockingQueue() }
        outboxes = (0..<shardCount).map { _ in BlockingQueue() }
        pending = Array(repeating: [], count: shardCount)
        for index in 0..<shardCount {
            let (inbox, outbox) = (inboxes[index], outboxes[index])
            threads.append(WorkerThread { Self.runShard(index, configuration: configuration, inbox: inbox, outbox: outbox) })
        }
        let transfer = MergerTransfer(merger: merger)
        let (log, outboxes, window) = (log, outboxes, window)
        threads.append(WorkerThread { Self.runMerger(transfer.merger, log: log, outboxes: outboxes, window: window) })
    }

    func ship(_ call: ConnectionCall, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        if case .receive(_, let bytes, _, _, _) = call { pendingUnits += bytes.count >> 9 }
        pendingUnits += 1
        pending[shard].append(.call(call))
        if pending[shard].count >= Self.chunk { push(shard) }
    }

    func inputChanged(_ name: String?) {
        for shard in 0..<shardCount { pending[shard].append(.input(name)) }
    }

    /// After each packet: pushes what is due; false once the merger found a conflict.
    func packetDone() -> Bool {
        if reader.calls.count >= Self.chunk || pendingUnits >= Self.chunk * 8 { pushEverything() }
        return !window.isStopped
    }

    /// Pushes every shard's calls, then the reader's log that refers to them, and waits while
    /// the window is full.
    private func pushEverything() {
        for shard in 0..<shardCount { push(shard) }
        let calls = reader.take()
        let units = pendingUnits + calls.count
        pendingUnits = 0
        log.push([.calls(calls, units: units)])
        window.add(units)
    }

    private func push(_ shard: Int) {
        inboxes[shard].push(pending[shard])
        pending[shard].removeAll(keepingCapacity: true)
    }

    /// Ends the run: everything pushed, the threads joined; the merger ends the run with
    /// `summary` unless it stopped at a conflict. The merger is the caller's again.
    func finish(readerSummary summary: InputSummary) {
        pushEverything()
        for shard in 0..<shardCount { inboxes[shard].push([.end]) }
        log.push([.end(summary)])
        for thread in threads { thread.join() }
    }

    private static func runShard(_ index: Int, configuration: AnalysisConfiguration, inbox: BlockingQueue<ShardMessage>, outbox: BlockingQueue<[RecordedCall]>) {
        let recorder = CallRecorder(recorder: index + 1)
        let shard = ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: recorder))
        while true {
            var batches: [[RecordedCall]] = []
            for message in inbox.takeAll() {
                switch message {
                case .call(let call):
                    shard.make(call)
                    batches.append(recorder.take())
                case .input(let name):
                    shard.context.currentInput = name
                case .end:
                    outbox.push(batches)
                    return
                }
            }
            outbox.push(batches)
        }
    }

    private static func runMerger(_ merger: CallMerger, log: BlockingQueue<LogMessage>, outboxes: [BlockingQueue<[RecordedCall]>], window: HandoffWindow) {
        var waiting = outboxes.map { _ in BatchQueue() }
        func batch(_ shard: Int) -> [RecordedCall] {
            if waiting[shard].isEmpty { waiting[shard].append(outboxes[shard].takeAll()) }
            return waiting[shard].removeFirst()
        }
        while true {
            for message in log.takeAll() {
                switch message {
                case .calls(let calls, let units):
                    if !merger.replay(readerCalls: calls, batch: batch) { window.stop() }
                    window.remove(units)
                case .end(let summary):
                    if merger.conflict == nil { merger.finish(readerSummary: summary) }
                    return
                }
            }
        }
    }
}

/// The batches a shard sent that the merger has not replayed yet, oldest first, without
/// shifting the array at each one.
private struct BatchQueue {
    private var batches: [[RecordedCall]] = []
    private var head = 0

    var isEmpty: Bool { head == batches.count }

    mutating func append(_ more: [[RecordedCall]]) {
        if head == batches.count {
            batches.removeAll(keepingCapacity: true)
            head = 0
        }
        batches.append(contentsOf: more)
    }

    mutating func removeFirst() -> [RecordedCall] {
        defer { head += 1 }
        return batches[head]
    }
}
