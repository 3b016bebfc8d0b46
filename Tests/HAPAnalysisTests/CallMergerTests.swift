import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport
@testable import HAPAnalysis

/// The merger replays the reader's log, each handoff replaced by the shard's batch for it, into
/// the one real context: built records in, one job's stream out.
@Suite("The merger of a sharded run")
struct CallMergerTests {
    static func problem(_ text: String, _ packet: Int?) -> RecordedCall {
        .emit(HAPEvent(packet: packet.map { .numbered($0) }, kind: .problem(CaptureProblem(.streamGap, text))))
    }

    /// One chunk of a shard's batches, answering a chunk of calls of `units` units.
    static func chunk(_ batches: [[RecordedCall]], units: Int = 0) -> ShardBatches {
        ShardBatches(calls: batches.flatMap { $0 }, ends: batches.reduce(into: []) { ends, batch in ends.append((ends.last ?? 0) + batch.count) }, units: units)
    }

    static func queues(_ batches: [[[RecordedCall]]]) -> [BatchQueue] {
        batches.map { shardBatches in
            var queue = BatchQueue()
            queue.append([chunk(shardBatches)])
            return queue
        }
    }

    static func log(_ calls: [RecordedCall]) -> PendingCalls {
        var log = PendingCalls()
        log.append(calls)
        return log
    }

    /// Replays `reader` with `batches` per shard (in handoff order); the messages delivered.
    static func merge(_ reader: [RecordedCall], _ batches: [[[RecordedCall]]], finish: Bool = true) -> (messages: [String], merger: CallMerger, recorder: EventRecorder) {
        let recorder = EventRecorder()
        let merger = CallMerger(configuration: AnalysisConfiguration(), consumers: [recorder])
        var log = log(reader)
        var queues = queues(batches)
        _ = merger.replay(&log, &queues)
        if finish, merger.conflict == nil { merger.finish(readerSummary: InputSummary()) }
        return (recorder.problems.map(\.message), merger, recorder)
    }

    @Test("each handoff is replaced by its shard's next batch, in the reader's order")
    func handoffs() {
        let (messages, _, _) = Self.merge(
            [Self.problem("a", 1), .handoff(shard: 0), Self.problem("d", 3), .handoff(shard: 1), .handoff(shard: 0)],
            [[[Self.problem("b", 2), Self.problem("c", 2)], [Self.problem("f", 5)]], [[Self.problem("e", 4)]]])
        #expect(messages == ["a", "b", "c", "d", "e", "f"])
    }

    @Test("a shard's hold keeps later events of the reader and other shards waiting, in capture order, until its release")
    func holds() {
        let hold = CaptureOrderBuffer.Hold(connection: 3, .recognition)
        let (messages, _, _) = Self.merge(
            [.handoff(shard: 0), Self.problem("reader at 6", 6), .handoff(shard: 1), .handoff(shard: 0)],
            [[[.hold(hold, from: .numbered(4))], [Self.problem("held at 4", 4), .release(hold)]], [[Self.problem("other at 5", 5)]]])
        #expect(messages == ["held at 4", "other at 5", "reader at 6"])
    }

    @Test("the first hit of a limit is reported once whichever shard makes it; every hit is counted")
    func limits() {
        let (_, merger, recorder) = Self.merge(
            [.handoff(shard: 1), .handoff(shard: 0), .addLimitHits(.httpBody, 2)],
            [[[.limitReached(.httpBody, "second shard", .numbered(9))]], [[.limitReached(.httpBody, "first shard", .numbered(7))]]])
        #expect(recorder.problems(.limitReached).map(\.problem.message) == ["first shard"])
        #expect(merger.context.summary.limitsReached == [.httpBody: 4])
        guard case .inputEnded(let summary) = recorder.events.last?.kind else { Issue.record("no input-ended"); return }
        #expect(summary.limitsReached == [.httpBody: 4])
    }

    @Test("a conflict stops the replay at the read: what came before is delivered, nothing after")
    func conflict() {
        let (messages, merger, _) = Self.merge(
            [Self.problem("a", 1), .handoff(shard: 0), .handoff(shard: 1), Self.problem("never", 9)],
            [[[.fact(.learnedLTPK(.controller, pairingID: "c", key: [1])), Self.problem("b", 2)]],
             [[Self.problem("c", 3), .fact(.readLTPK(.controller, pairingID: "c", answer: nil)), Self.problem("never", 4)]]])
        #expect(messages == ["a", "b", "c"])
        #expect(merger.delivered == 3)
        #expect(merger.conflict?.reason == .longTermKey(.controller, pairingID: "c"))
        #expect(merger.conflict?.packet == 3)
        var later = Self.log([Self.problem("later", 10)])
        var none: [BatchQueue] = []
        #expect(merger.replay(&later, &none) == .stopped, "a stopped merger replays nothing more")
    }

    @Test("a replay stops before a handoff whose batch has not come, and goes on from there when it comes")
    func resumes() {
        let recorder = EventRecorder()
        let merger = CallMerger(configuration: AnalysisConfiguration(), consumers: [recorder])
        var log = Self.log([Self.problem("a", 1), .handoff(shard: 0), .handoff(shard: 1), Self.problem("d", 4)])
        var queues = Self.queues([[[Self.problem("b", 2)]], []])
        #expect(merger.replay(&log, &queues) == .waiting(shard: 1))
        #expect(recorder.problems.map(\.message) == ["a", "b"])
        #expect(log.count == 2, "the handoff waits at the front of the log")
        log.append([.handoff(shard: 0), Self.problem("f", 6)])
        #expect(merger.replay(&log, &queues) == .waiting(shard: 1), "nothing moves until the batch comes")
        queues[1].append([Self.chunk([[Self.problem("c", 3)]])])
        #expect(merger.replay(&log, &queues) == .waiting(shard: 0))
        queues[0].append([Self.chunk([[Self.problem("e", 5)]])])
        #expect(merger.replay(&log, &queues) == .caughtUp)
        #expect(recorder.problems.map(\.message) == ["a", "b", "c", "d", "e", "f"])
        #expect(log.count == 0)
    }

    @Test("a chunk's units are released when its last batch is replayed; a chunk of no batch releases them at once")
    func units() {
        var queue = BatchQueue()
        queue.append([Self.chunk([[Self.problem("a", 1)], [Self.problem("b", 2)]], units: 7), Self.chunk([], units: 3)])
        #expect(queue.takeReplayedUnits() == 0)
        #expect(queue.replayNextBatch { _ in true })
        #expect(queue.takeReplayedUnits() == 0, "one batch of the chunk is left")
        #expect(queue.replayNextBatch { _ in true })
        #expect(queue.takeReplayedUnits() == 10)
        #expect(!queue.hasBatch)
    }

    @Test("the log keeps its order however much is appended while its front is replayed")
    func pendingOrder() {
        var log = PendingCalls()
        var popped: [Int] = []
        for round in 0..<50 {
            log.append((0..<3).map { .handoff(shard: round * 3 + $0) })
            for _ in 0..<2 {
                if case .handoff(let number) = log.popFirst() { popped.append(number) }
            }
        }
        while case .handoff(let number) = log.popFirst() { popped.append(number) }
        #expect(popped == Array(0..<150))
    }
}
