import HAPCore
import HAPEvents
import Packets

/// The end of a sharded run (`--jobs`): the one real `AnalysisContext` and its consumers, into
/// which the reader's log is replayed in order, each handoff replaced by the batch of calls the
/// shard made for it. The context's `CaptureOrderBuffer`, its first-hit-of-a-limit rule and its
/// consumers so see, call for call, what one job makes; the `FactMirror` checks every fact read
/// on the way, and the first read one job would have answered otherwise stops the replay there
/// (`conflict`): what was delivered before it is one job's.
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

    /// Replays the reader's calls; `batch(shard)` gives the next batch of a shard, in the order
    /// the reader handed off to it. False once a conflict stopped the replay.
    func replay(readerCalls: [RecordedCall], batch: (Int) -> ArraySlice<RecordedCall>) -> Bool {
        guard conflict == nil else { return false }
        for call in readerCalls {
            if case .handoff(let shard) = call {
                guard replay(batch(shard), by: shard + 1) else { return false }
            } else {
                guard replay(call, by: 0) else { return false }
            }
        }
        return true
    }

    private func replay(_ calls: ArraySlice<RecordedCall>, by recorder: Int) -> Bool {
        for call in calls {
            guard replay(call, by: recorder) else { return false }
        }
        return true
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
