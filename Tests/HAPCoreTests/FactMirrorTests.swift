import HAPEvents
import Packets
import Testing
@testable import HAPCore

/// The merger's mirror of what connections teach each other: parts of a sharded run answer their
/// reads from their own writes; a read one job would have answered otherwise is a conflict.
@Suite("The facts of a sharded run, checked against one job's order")
struct FactMirrorTests {
    static let address = PeerAddress.ip(Endpoint(address: .v4(0x0A00_0107), port: 51826))
    static let other = PeerAddress.ip(Endpoint(address: .v4(0x0A00_0108), port: 51826))

    @Test("a long-term key learned on one shard and read on another is a conflict; on the same shard it is not")
    func longTermKeys() {
        var mirror = FactMirror(keyLog: KeyLog())
        #expect(mirror.replay(.readLTPK(.controller, pairingID: "c", answer: nil), by: 2) == nil, "nothing learned yet: both say none")
        #expect(mirror.replay(.learnedLTPK(.controller, pairingID: "c", key: [1, 2]), by: 1) == nil)
        #expect(mirror.replay(.readLTPK(.controller, pairingID: "c", answer: [1, 2]), by: 1) == nil)
        #expect(mirror.replay(.readLTPK(.controller, pairingID: "c", answer: nil), by: 2) == .longTermKey(.controller, pairingID: "c"))
        #expect(mirror.replay(.readLTPK(.accessory, pairingID: "c", answer: nil), by: 2) == nil, "accessory keys are kept apart")
    }

    @Test("a database key stored by one part and consulted by another, in either order, is a conflict")
    func databaseKeys() {
        var mirror = FactMirror(keyLog: KeyLog())
        #expect(mirror.replay(.storedDatabase(key: "AA", accessory: Self.address), by: 1) == nil)
        #expect(mirror.replay(.consultedDatabase(key: "AA", accessory: Self.address), by: 1) == nil)
        #expect(mirror.replay(.consultedDatabase(key: "BB", accessory: nil), by: 2) == nil, "another key")
        #expect(mirror.replay(.consultedDatabase(key: "AA", accessory: Self.other), by: 2) == .database(key: "AA"))

        var later = FactMirror(keyLog: KeyLog())
        #expect(later.replay(.consultedDatabase(key: "AA", accessory: Self.address), by: 2) == nil)
        #expect(later.replay(.consultedDatabase(key: "AA", accessory: Self.address), by: 0) == nil, "reads alone never conflict")
        #expect(later.replay(.storedDatabase(key: "AA", accessory: Self.other), by: 1) == .database(key: "AA"),
                "a connection that consulted the key keeps what it found until a store: the store conflicts")
    }

    @Test("an accessory address whose databases two parts store or consult is a conflict")
    func databaseAddresses() {
        var mirror = FactMirror(keyLog: KeyLog())
        #expect(mirror.replay(.storedDatabase(key: "AA", accessory: Self.address), by: 1) == nil)
        #expect(mirror.replay(.consultedDatabase(key: "CC", accessory: Self.address), by: 0) == .databaseAddress(Self.address))
    }

    @Test("the key log's candidates must be the ones left after every claim one job would have made before")
    func keyLogSessions() throws {
        let one = String(repeating: "11", count: 32), two = String(repeating: "22", count: 32), secret = String(repeating: "33", count: 32)
        var keyLog = KeyLog()
        try keyLog.add(parsing: "PAIR_VERIFY_SHARED_SECRET \(one) \(secret)\nPAIR_VERIFY_SHARED_SECRET \(two) \(secret)", source: "test")
        var mirror = FactMirror(keyLog: keyLog)
        let both = KeyLogSessions(keyLog).candidateIDs(between: Self.address, Self.other)
        #expect(both.count == 2)
        #expect(mirror.replay(.readKeyLogCandidates(Self.address, Self.other, answer: both), by: 1) == nil)
        #expect(mirror.replay(.claimedKeyLogSession(both[0]), by: 2) == nil)
        #expect(mirror.replay(.readKeyLogCandidates(Self.address, Self.other, answer: both), by: 1) == .keyLogSessions(Self.address, Self.other),
                "shard 1 did not see shard 2's claim")
        #expect(mirror.replay(.readKeyLogCandidates(Self.address, Self.other, answer: [both[1]]), by: 1) == nil)
    }

    @Test("a recording context keeps its calls and its fact accesses instead of applying them")
    func recordingContext() throws {
        let recorder = CallRecorder(recorder: 1)
        let context = AnalysisContext(configuration: AnalysisConfiguration(), recordingInto: recorder)
        context.emit(.problem(CaptureProblem(.streamGap, "gap")), nil)
        context.limitReached(.httpBody, "body", nil)
        context.learnAccessoryLTPK("AB", [9])
        #expect(context.accessoryLTPK("ab") == [9])
        #expect(context.summary.limitsReached.isEmpty, "the merger counts limits")
        let calls = recorder.take()
        #expect(calls.count == 4)
        guard case .fact(let read) = calls[3] else { Issue.record("no read recorded"); return }
        #expect(read == .readLTPK(.accessory, pairingID: "ab", answer: [9]))
        #expect(recorder.take().isEmpty)
    }
}
