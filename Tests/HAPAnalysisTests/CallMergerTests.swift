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

    /// Replays `reader` with `batches` per shard (in handoff order); the messages delivered.
    static func merge(_ reader: [RecordedCall], _ batches: [[[RecordedCall]]], finish: Bool = true) -> (messages: [String], merger: CallMerger, recorder: EventRecorder) {
        let recorder = EventRecorder()
        let merger = CallMerger(configuration: AnalysisConfiguration(), consumers: [recorder])
        var waiting = batches
        _ = merger.replay(readerCalls: reader) { shard in waiting[shard].removeFirst()[...] }
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
        #expect(!merger.replay(readerCalls: [Self.problem("later", 10)]) { _ in [] }, "a stopped merger replays nothing more")
    }
}
