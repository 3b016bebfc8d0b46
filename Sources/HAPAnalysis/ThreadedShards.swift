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
    private let outboxes: [BlockingQueue<ShardBatches>]
    private let log = BlockingQueue<LogMessage>()
    /// Per shard, the steps not pushed yet, and the bytes of their receives, in order.
    private var pending: [[ShardStep]]
    private var pendingBytes: [[UInt8]]
    private var pendingUnits = 0
    private var threads: [WorkerThread] = []
    private let merger: CallMerger

    /// Units of work shipped and not merged at most (a call, and one per 512 bytes it carries):
    /// about 2 MB of segment bytes in flight.
    static let windowUnits = 4_096
    /// A shard's messages are pushed in chunks of this many; the reader's log when it holds this
    /// many calls, so that the locks are taken per chunk, not per packet.
    static let chunk = 512

    private enum ShardStep: Sendable {
        case call(ConnectionCall)
        case input(String?)
    }

    /// A chunk of a shard's steps with its receives' bytes, one after the other; or the end.
    private enum ShardMessage: Sendable {
        case chunk([ShardStep], bytes: [UInt8])
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

    /// Nil when the threads cannot all be started.
    init?(configuration: AnalysisConfiguration, shardCount: Int, reader: CallRecorder, merger: CallMerger) {
        self.shardCount = shardCount
        self.reader = reader
        self.merger = merger
        inboxes = (0..<shardCount).map { _ in BlockingQueue() }
        outboxes = (0..<shardCount).map { _ in BlockingQueue() }
        pending = Array(repeating: [], count: shardCount)
        pendingBytes = Array(repeating: [], count: shardCount)
        for index in 0..<shardCount {
            let (inbox, outbox) = (inboxes[index], outboxes[index])
            guard let thread = WorkerThread({ Self.runShard(index, configuration: configuration, inbox: inbox, outbox: outbox) }) else {
                return nil
            }
            threads.append(thread)
        }
        let transfer = MergerTransfer(merger: merger)
        let (log, outboxes, window) = (log, outboxes, window)
        guard let thread = WorkerThread({ Self.runMerger(transfer.merger, log: log, outboxes: outboxes, window: window) }) else {
            return nil
        }
        threads.append(thread)
    }

    /// A thread could not be started (a process or container limit): the shards started end, and
    /// the run is one job's.
    deinit {
        guard threads.count <= shardCount else { return }
        for (inbox, _) in zip(inboxes, threads) { inbox.push([.end]) }
        for thread in threads { thread.join() }
    }

    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int) {
        reader.record(.handoff(shard: shard))
        pendingBytes[shard].append(contentsOf: bytes)
        pendingUnits += 1 + bytes.count >> 9
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
        guard !pending[shard].isEmpty else { return }
        inboxes[shard].push([.chunk(pending[shard], bytes: pendingBytes[shard])])
        pending[shard] = []
        pendingBytes[shard] = []
    }

    /// Ends the run: everything pushed, the threads joined; the merger ends the run with
    /// `summary` unless it stopped at a conflict. The merger is the caller's again.
    func finish(readerSummary summary: InputSummary) {
        pushEverything()
        for shard in 0..<shardCount { inboxes[shard].push([.end]) }
        log.push([.end(summary)])
        for thread in threads { thread.join() }
    }

    /// Makes each chunk's calls and sends back their batches, one chunk of batches per chunk.
    private static func runShard(_ index: Int, configuration: AnalysisConfiguration, inbox: BlockingQueue<ShardMessage>, outbox: BlockingQueue<ShardBatches>) {
        let recorder = CallRecorder(recorder: index + 1)
        let shard = ConnectionShard(context: AnalysisContext(configuration: configuration, recordingInto: recorder))
        while true {
            for message in inbox.takeAll() {
                guard case .chunk(let steps, let bytes) = message else { return }
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
                outbox.push([ShardBatches(calls: recorder.take(), ends: ends)])
            }
        }
    }

    private static func runMerger(_ merger: CallMerger, log: BlockingQueue<LogMessage>, outboxes: [BlockingQueue<ShardBatches>], window: HandoffWindow) {
        var waiting = outboxes.map { _ in BatchQueue() }
        func batch(_ shard: Int) -> ArraySlice<RecordedCall> {
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

/// The batches of one chunk of a shard's calls: their recorded calls one after the other, and
/// where each batch ends, so that a chunk crosses as two arrays, not an array per call.
private struct ShardBatches: Sendable {
    let calls: [RecordedCall]
    let ends: [Int]
}

/// The batches a shard sent that the merger has not replayed yet, oldest first.
private struct BatchQueue {
    private var chunks: [ShardBatches] = []
    private var chunk = 0
    private var batch = 0

    var isEmpty: Bool { chunk == chunks.count }

    mutating func append(_ more: [ShardBatches]) {
        if isEmpty {
            chunks.removeAll(keepingCapacity: true)
            chunk = 0
        }
        chunks.append(contentsOf: more)
        skipEmptyChunks()
    }

    mutating func removeFirst() -> ArraySlice<RecordedCall> {
        let current = chunks[chunk]
        let start = batch == 0 ? 0 : current.ends[batch - 1]
        let calls = current.calls[start..<current.ends[batch]]
        batch += 1
        if batch == current.ends.count {
            chunk += 1
            batch = 0
            skipEmptyChunks()
        }
        return calls
    }

    /// A chunk of only input changes holds no batch.
    private mutating func skipEmptyChunks() {
        while chunk < chunks.count, chunks[chunk].ends.isEmpty { chunk += 1 }
    }
}
