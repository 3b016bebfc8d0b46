import HAPCore
import HAPEvents
import Packets

/// The end of a sharded run (`--jobs`): the one real `AnalysisContext` and its consumers, into
/// which the reader's log is replayed in order, each handoff replaced by the batch of calls the
/// shard made for it. The context's `CaptureOrderBuffer`, its first-hit-of-a-limit rule and its
/// consumers so see, call for call, what one job makes; the `FactMirror` checks every fact read
/// on the way, and the first read one job would have answered otherwise stops the replay there
/// (`conflict`): what was delivered before it is one job's.
///
/// It runs on the reader's thread, between packets (`ThreadedShards`, `SequentialShards`): the
/// replay goes as far as the shards' batches have come and goes on from there the next time.
final class CallMerger {
    private(set) var context: AnalysisContext!
    private var mirror: FactMirror
    /// Events delivered to the consumers so far.
    private(set) var delivered = 0
    /// The first conflict, with the latest packet replayed when it was found.
    private(set) var conflict: (reason: FactConflict, packet: Int)?
    private var latestPacket = 0

    init(configuration: AnalysisConfiguration, consumers: [HAPEventConsumer]) {
        mirror = FactMirror(keyLog: configuration.keyLog)
        context = AnalysisContext(configuration: configuration) { [unowned self] event in
            delivered += 1
            for consumer in consumers { consumer.consume(event) }
        }
    }

    /// How far a replay came.
    enum Progress: Equatable {
        /// Every call of the reader's log is replayed.
        case caughtUp
        /// The next call is a handoff to this shard, whose batch has not arrived.
        case waiting(shard: Int)
        /// A conflict stopped the replay, now or before.
        case stopped
    }

    /// Replays the reader's calls from the front of `log`, each handoff replaced by the next
    /// batch of its shard in `batches`, until the log is empty or a handoff's batch is not there
    /// yet; each call is moved out as it is replayed.
    func replay(_ log: inout PendingCalls, _ batches: inout [BatchQueue]) -> Progress {
        guard conflict == nil else { return .stopped }
        while let call = log.popFirst() {
            if case .handoff(let shard) = call {
                guard batches[shard].hasBatch else {
                    log.putBack(call)
                    return .waiting(shard: shard)
                }
                guard batches[shard].replayNextBatch({ replay($0, by: shard + 1) }) else { return .stopped }
            } else {
                guard replay(call, by: 0) else { return .stopped }
            }
        }
        return .caughtUp
    }

    private func replay(_ call: RecordedCall, by recorder: Int) -> Bool {
        switch call {
        case .emit(let event):
            if let number = event.packet?.number { latestPacket = max(latestPacket, number) }
            context.emit(event)
        case .hold(let hold, let packet):
            context.hold(hold, from: packet)
        case .release(let hold):
            context.release(hold)
        case .limitReached(let limit, let message, let packet):
            context.limitReached(limit, message, packet)
        case .addLimitHits(let limit, let count):
            context.addLimitHits(limit, count)
        case .fact(let access):
            if let reason = mirror.replay(access, by: recorder) {
                conflict = (reason, latestPacket)
                return false
            }
        case .handoff:
            // Only the reader's log hands off; a shard's batch never does.
            break
        }
        return true
    }

    /// Ends the run: the reader's totals (it counted packets, bytes and connections) with the
    /// limits as the replay counted them, then whatever still waits, then `inputEnded`.
    func finish(readerSummary: InputSummary) {
        var summary = readerSummary
        summary.limitsReached = context.summary.limitsReached
        context.summary = summary
        context.endRun()
    }
}

/// The reader's recorded calls not replayed yet, oldest first. A call leaves by a move (swapped
/// for a handoff, which holds nothing), so that the replay makes no copy of an event and
/// retains nothing.
struct PendingCalls {
    private var calls: [RecordedCall] = []
    private var next = 0

    var count: Int { calls.count - next }

    /// Appends `more`, the reader's calls since the last append; the replayed front is dropped
    /// once it is half the buffer, so that the buffer stays as long as what waits.
    mutating func append(_ more: [RecordedCall]) {
        if next == calls.count {
            calls = more
            next = 0
            return
        }
        if next >= calls.count / 2 {
            calls.removeFirst(next)
            next = 0
        }
        calls.append(contentsOf: more)
    }

    mutating func popFirst() -> RecordedCall? {
        guard next < calls.count else { return nil }
        var call = RecordedCall.handoff(shard: 0)
        swap(&call, &calls[next])
        next += 1
        return call
    }

    /// Puts back the call `popFirst` just gave.
    mutating func putBack(_ call: RecordedCall) {
        next -= 1
        calls[next] = call
    }
}

/// The batches of one chunk of a shard's calls: their recorded calls one after the other, and
/// where each batch ends, so that a chunk crosses as two arrays, not an array per call; and the
/// units of work (`ThreadedShards.Batching.windowUnits`) of the chunk of calls they answer.
struct ShardBatches: Sendable {
    var calls: [RecordedCall]
    let ends: [Int]
    let units: Int
}

/// The batches a shard sent that the merger has not replayed yet, oldest first; how many units
/// of work the chunks replayed to the end answered; and those chunks' calls, to go back to the
/// shard that made them (`takeReplayed`), so that its events' memory is freed on the thread that
/// allocated it (freed on another, each block takes the allocator's slow paths on both threads:
/// glibc's per-thread caches fill on the one and stay empty on the other).
struct BatchQueue {
    private var chunks: [ShardBatches] = []
    private var chunk = 0
    private var batch = 0
    /// The units of the chunks replayed to the end, since the last `takeReplayedUnits`.
    private var replayedUnits = 0
    private var replayed: [[RecordedCall]] = []

    var hasBatch: Bool { chunk < chunks.count }

    mutating func append(_ more: [ShardBatches]) {
        if chunk == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            chunk = 0
        } else if chunk >= chunks.count / 2 {
            chunks.removeFirst(chunk)
            chunk = 0
        }
        chunks.append(contentsOf: more)
        skipEmptyChunks()
    }

    /// Hands the calls of the oldest batch, one by one, to `replay`, until it returns false (a
    /// conflict: the rest is never replayed). Call only when `hasBatch`.
    mutating func replayNextBatch(_ replay: (RecordedCall) -> Bool) -> Bool {
        let start = batch == 0 ? 0 : chunks[chunk].ends[batch - 1]
        let end = chunks[chunk].ends[batch]
        // Each call is moved out for its replay and back into the chunk after it: no copy of a
        // call and no retain of its event here, where its memory is another thread's.
        let replayedAll = chunks[chunk].calls.withUnsafeMutableBufferPointer { calls in
            for index in start..<end {
                var call = RecordedCall.handoff(shard: 0)
                swap(&call, &calls[index])
                let goesOn = replay(call)
                swap(&call, &calls[index])
                guard goesOn else { return false }
            }
            return true
        }
        guard replayedAll else { return false }
        batch += 1
        if batch == chunks[chunk].ends.count {
            replayedUnits += chunks[chunk].units
            replayed.append(chunks[chunk].calls)
            chunks[chunk].calls = []
            chunk += 1
            batch = 0
            skipEmptyChunks()
        }
        return true
    }

    mutating func takeReplayedUnits() -> Int {
        defer { replayedUnits = 0 }
        return replayedUnits
    }

    /// The calls of the chunks replayed to the end since the last take.
    mutating func takeReplayed() -> [[RecordedCall]] {
        defer { replayed = [] }
        return replayed
    }

    /// A chunk of only input changes holds no batch.
    private mutating func skipEmptyChunks() {
        while chunk < chunks.count, chunks[chunk].ends.isEmpty {
            replayedUnits += chunks[chunk].units
            chunk += 1
        }
    }
}
