import Testing
import HAPCrypto
import TestSupport

@Suite struct HAPFrameJoinerTests {
    let key: ChaCha20Poly1305.Key
    let otherKey: ChaCha20Poly1305.Key

    init() throws {
        key = try ChaCha20Poly1305.Key(secret(HAPVectors.accessoryToControllerKey))
        otherKey = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
    }

    /// A direction that had sent `firstCounter` frames when the capture began, then frames of
    /// `frameLengths`.
    private func stream(frameLengths: [Int], firstCounter: UInt64, key: ChaCha20Poly1305.Key) throws -> [UInt8] {
        var encryptor = HAPFrameEncryptor(key: key, firstCounter: firstCounter)
        var bytes: [UInt8] = []
        for (index, length) in frameLengths.enumerated() {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            bytes += try encryptor.seal(plaintext.span.bytes, maximumFrameLength: HAPFrame.largestDeclarableLength)
        }
        return bytes
    }

    private func feed(_ joiner: inout HAPFrameJoiner, _ pieces: [[UInt8]]) -> HAPFrameJoiner.Progress {
        var progress = HAPFrameJoiner.Progress.needsMoreBytes
        for piece in pieces {
            progress = piece.withUnsafeBytes { joiner.append($0) }
            guard progress == .needsMoreBytes else { break }
        }
        return progress
    }

    @Test func aCaptureThatBeganBetweenFramesIsJoinedOnItsFirstFrame() throws {
        let bytes = try stream(frameLengths: [120, 40], firstCounter: 12, key: key)
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1024)
        let progress = feed(&joiner, [Array(bytes.prefix(120 + 18))])
        guard case .joined(let join) = progress else { Issue.record("not joined: \(progress)"); return }
        #expect(join.keyIndex == 0)
        #expect(join.skippedByteCount == 0)
        #expect(join.firstCounter == 12)
        #expect(join.countersTried == 13)
        #expect(joiner.heldBytes == Array(bytes.prefix(138)))
    }

    @Test func aCaptureThatBeganInsideAFrameSkipsItsRestAndFindsTheNextBoundary() throws {
        let bytes = try stream(frameLengths: [1024, 1024, 1024, 300], firstCounter: 5, key: key)
        let capturedFrom = 1042 - 656
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1024)
        let progress = feed(&joiner, pieces(Array(bytes[capturedFrom...]), size: 1448))
        guard case .joined(let join) = progress else { Issue.record("not joined: \(progress)"); return }
        #expect(join.skippedByteCount == 656)
        #expect(join.firstCounter == 6)
    }

    @Test func theCounterIsFoundOnTheShortestFrameAndCheckedOnTheFirst() throws {
        // The probe is the 30-byte frame, the third: its counter less two is the first frame's.
        let bytes = try stream(frameLengths: [900, 700, 30, 800], firstCounter: 40_000, key: key)
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1 << 20)
        guard case .joined(let join) = feed(&joiner, [bytes]) else { Issue.record("not joined"); return }
        #expect(join.firstCounter == 40_000)
        #expect(join.countersTried == 40_003)
    }

    @Test func eachCounterIsTriedUnderEveryKeySoTheRightKeyIsFoundWhereverItIsListed() throws {
        let bytes = try stream(frameLengths: [64, 64], firstCounter: 3, key: key)
        var joiner = HAPFrameJoiner(keys: [otherKey, otherKey, key], counterLimit: 1 << 20)
        guard case .joined(let join) = feed(&joiner, [bytes]) else { Issue.record("not joined"); return }
        #expect(join.keyIndex == 2)
        #expect(join.firstCounter == 3)
        #expect(join.countersTried == 4 * 3)
    }

    @Test func aWrongKeyCostsOneBoundedSearchPerGuessAndFails() throws {
        let bytes = try stream(frameLengths: [64, 64, 64], firstCounter: 0, key: key)
        var joiner = HAPFrameJoiner(keys: [otherKey], counterLimit: 500)
        // The first byte is tried at once; the stream may still hold a later boundary.
        #expect(feed(&joiner, [bytes]) == .needsMoreBytes)
        guard case .failed(let failure) = joiner.finish() else { Issue.record("a wrong key joined"); return }
        #expect(failure.reason == .noKeyOpens)
        #expect(failure.reachedCounterLimit)
        #expect(failure.countersTried == 500 * UInt64(failure.boundariesTried))
        // Decided once: more bytes change nothing and cost nothing.
        #expect(feed(&joiner, [bytes]) == .failed(failure))
    }

    @Test func aSessionOlderThanTheLimitIsReportedAsReachingIt() throws {
        let bytes = try stream(frameLengths: [64, 64], firstCounter: 2000, key: key)
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1000)
        _ = feed(&joiner, [bytes])
        guard case .failed(let failure) = joiner.finish() else { Issue.record("joined beyond the limit"); return }
        #expect(failure.reachedCounterLimit)
    }

    @Test func theCheckBudgetBoundsADirectionHoweverManyKeysThereAre() throws {
        let bytes = try stream(frameLengths: [64, 64, 64], firstCounter: 0, key: key)
        // Ten wrong keys at 500 counters each would cost 5,000 checks per guess; the budget is 1,200.
        var joiner = HAPFrameJoiner(keys: Array(repeating: otherKey, count: 10), counterLimit: 500, checkBudget: 1200)
        guard case .failed(let failure) = feed(&joiner, [bytes]) else { Issue.record("expected the budget to end the search"); return }
        #expect(failure.reason == .noKeyOpens)
        #expect(failure.reachedCheckBudget)
        #expect(!failure.reachedCounterLimit)
        #expect(failure.countersTried <= 1200)
        #expect(failure.boundariesTried == 1, "no guess is tried once the budget is spent")
    }

    @Test func aKeyWithinTheBudgetStillJoins() throws {
        let bytes = try stream(frameLengths: [64, 64], firstCounter: 90, key: key)
        var joiner = HAPFrameJoiner(keys: [otherKey, key], counterLimit: 1 << 20, checkBudget: 200)
        guard case .joined(let join) = feed(&joiner, [bytes]) else { Issue.record("not joined"); return }
        #expect(join.keyIndex == 1)
        #expect(join.firstCounter == 90)
    }

    @Test func bytesThatCannotBeFramesFailWithoutTryingAKey() {
        // Every length field read anywhere is 0xFFFF: no offset starts a plausible frame.
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1 << 20)
        let progress = feed(&joiner, [[UInt8](repeating: 0xFF, count: 2000)])
        #expect(progress == .failed(.init(reason: .noFrameBoundary, boundariesTried: 0, countersTried: 0, reachedCounterLimit: false)))
    }

    @Test func randomBytesAreJudgedWithinTheHeldBound() {
        var generator = SeededRandom(seed: 0x4A4F_494E)
        for _ in 0..<20 {
            var joiner = HAPFrameJoiner(keys: [key], counterLimit: 64)
            var fed = 0
            var progress = HAPFrameJoiner.Progress.needsMoreBytes
            while progress == .needsMoreBytes {
                let piece = (0..<100).map { _ in UInt8.random(in: 0...255, using: &generator) }
                progress = piece.withUnsafeBytes { joiner.append($0) }
                fed += piece.count
            }
            guard case .failed = progress else { Issue.record("random bytes joined: \(progress)"); continue }
            #expect(fed <= joiner.maximumHeldByteCount + 100)
        }
    }

    @Test func aGuessAwayFromTheFirstByteWaitsForTwoFramesUnlessTheStreamEnds() throws {
        let bytes = try stream(frameLengths: [200, 100, 100], firstCounter: 9, key: key)
        let capturedFrom = 150
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 1024)
        // From byte 150: the rest of frame 9, then frame 10 whole.
        #expect(feed(&joiner, [Array(bytes[capturedFrom..<(218 + 118)])]) == .needsMoreBytes)
        guard case .joined(let join) = joiner.finish() else { Issue.record("not joined at the end"); return }
        #expect(join.skippedByteCount == 218 - capturedFrom)
        #expect(join.firstCounter == 10)
    }

    @Test func keepingOneKeyDropsTheOthersButKeepsTheirIndices() throws {
        let bytes = try stream(frameLengths: [64, 64], firstCounter: 1, key: key)
        var joiner = HAPFrameJoiner(keys: [key, otherKey], counterLimit: 100)
        joiner.keepOnlyKey(at: 1)
        _ = feed(&joiner, [bytes])
        guard case .failed = joiner.finish() else { Issue.record("a dropped key joined"); return }
        var right = HAPFrameJoiner(keys: [otherKey, key], counterLimit: 100)
        right.keepOnlyKey(at: 1)
        guard case .joined(let join) = feed(&right, [bytes]) else { Issue.record("not joined"); return }
        #expect(join.keyIndex == 1)
    }

    @Test func framesLongerThanHAPsLimitAreNotLookedFor() throws {
        let bytes = try stream(frameLengths: [1500, 1500], firstCounter: 0, key: key)
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 16)
        _ = feed(&joiner, [bytes])
        guard case .failed = joiner.finish() else { Issue.record("a 1500-byte frame was joined"); return }
    }

    @Test func aKeyTrialThatDoesNotTrustTheFirstByteWaitsForThreeFrames() throws {
        let bytes = try stream(frameLengths: [50, 50, 50], firstCounter: 0, key: key)
        var joiner = HAPFrameJoiner(keys: [key], counterLimit: 16, framesToJudge: 3, trustsFirstByte: false)
        #expect(feed(&joiner, [Array(bytes.prefix(2 * 68))]) == .needsMoreBytes)
        guard case .joined = feed(&joiner, [Array(bytes.dropFirst(2 * 68))]) else { Issue.record("not joined on the third frame"); return }
    }

    private func pieces(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }
}
