import Testing
import HAPCrypto
import TestSupport

/// A frame copied out of the callback, for comparing.
struct CollectedFrame: Equatable, CustomStringConvertible {
    var counter: UInt64
    var declaredLength: Int
    var streamOffset: Int
    var plaintext: [UInt8]
    var anomalies: HAPDecryptedFrame.Anomalies

    var description: String { "frame \(counter) @\(streamOffset) (\(declaredLength) bytes)" }
}

extension HAPFrameDecryptor {
    /// Feeds one piece held in an array.
    mutating func decrypt(_ piece: [UInt8], forEachFrame body: (HAPDecryptedFrame) -> Void) throws(HAPFrameDecryptionError) {
        var thrown: HAPFrameDecryptionError?
        piece.withUnsafeBytes { bytes in
            do throws(HAPFrameDecryptionError) { try decrypt(bytes, forEachFrame: body) } catch { thrown = error }
        }
        if let thrown { throw thrown }
    }

    /// Feeds `pieces` in order and collects every frame handed over.
    mutating func collect(_ pieces: [[UInt8]]) throws(HAPFrameDecryptionError) -> [CollectedFrame] {
        var frames: [CollectedFrame] = []
        for piece in pieces {
            try decrypt(piece) { frame in
                frames.append(CollectedFrame(
                    counter: frame.counter, declaredLength: frame.declaredLength, streamOffset: frame.streamOffset,
                    plaintext: Array(frame.plaintext), anomalies: frame.anomalies))
            }
        }
        return frames
    }
}

@Suite struct HAPFrameDecryptorTests {
    let accessoryToController: ChaCha20Poly1305.Key
    let controllerToAccessory: ChaCha20Poly1305.Key

    init() throws {
        accessoryToController = try ChaCha20Poly1305.Key(secret(HAPVectors.accessoryToControllerKey))
        controllerToAccessory = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
    }

    /// One frame per entry of `frameLengths`, sealed in order, and their plaintexts.
    private func stream(frameLengths: [Int], key: ChaCha20Poly1305.Key) throws -> (bytes: [UInt8], plaintexts: [[UInt8]]) {
        var encryptor = HAPFrameEncryptor(key: key)
        var bytes: [UInt8] = []
        var plaintexts: [[UInt8]] = []
        for (index, length) in frameLengths.enumerated() {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            var frame = [UInt8](repeating: 0, count: length + HAPFrame.overheadByteCount)
            _ = try plaintext.withUnsafeBytes { plaintext in
                try frame.withUnsafeMutableBytes { try encryptor.sealFrame(plaintext, into: $0) }
            }
            plaintexts.append(plaintext)
            bytes += frame
        }
        return (bytes, plaintexts)
    }

    @Test func decryptsTheFactSheetsControllerFrame() throws {
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        let frames = try decryptor.collect([hex(HAPVectors.frame1)])
        #expect(frames == [CollectedFrame(counter: 0, declaredLength: 41, streamOffset: 0, plaintext: ascii(HAPVectors.frame1Plaintext), anomalies: [])])
        #expect(decryptor.nextCounter == 1)
        #expect(decryptor.streamOffset == 59)
    }

    @Test func twoFramesInOnePieceAreHandedOverWithConsecutiveCounters() throws {
        var decryptor = HAPFrameDecryptor(key: accessoryToController)
        let frames = try decryptor.collect([hex(HAPVectors.frame2) + hex(HAPVectors.frame3)])
        let plaintext = ascii(HAPVectors.frame2And3Plaintext)
        #expect(frames == [
            CollectedFrame(counter: 0, declaredLength: 27, streamOffset: 0, plaintext: plaintext, anomalies: []),
            CollectedFrame(counter: 1, declaredLength: 27, streamOffset: 45, plaintext: plaintext, anomalies: []),
        ])
    }

    @Test func feedingOneByteAtATimeGivesTheSameFrames() throws {
        let (bytes, plaintexts) = try stream(frameLengths: [41, 1024, 1, 300, 1024, 7], key: controllerToAccessory)
        var whole = HAPFrameDecryptor(key: controllerToAccessory)
        let expected = try whole.collect([bytes])
        var trickled = HAPFrameDecryptor(key: controllerToAccessory)
        let frames = try trickled.collect(bytes.map { [$0] })
        #expect(expected.map(\.plaintext) == plaintexts)
        #expect(frames == expected)
        #expect(trickled.bufferedByteCount == 0)
        #expect(trickled.streamOffset == bytes.count)
    }

    @Test func randomSplitsGiveTheSameFrames() throws {
        let lengths = [1024, 1024, 5, 900, 0, 1, 2, 3, 1024, 1500, 64, 64, 64, 17, 1024]
        let (bytes, _) = try stream(frameLengths: lengths, key: accessoryToController)
        var reference = HAPFrameDecryptor(key: accessoryToController)
        let expected = try reference.collect([bytes])
        #expect(expected.map(\.declaredLength) == lengths)
        var generator = SeededRandom(seed: 0x4841_5053)
        for _ in 0..<200 {
            var pieces: [[UInt8]] = []
            var start = 0
            while start < bytes.count {
                let length = Int.random(in: 1...2100, using: &generator)
                let end = min(start + length, bytes.count)
                pieces.append(Array(bytes[start..<end]))
                start = end
            }
            var decryptor = HAPFrameDecryptor(key: accessoryToController)
            let frames = try decryptor.collect(pieces)
            #expect(frames == expected)
        }
    }

    @Test func aStreamEndingInsideAFrameKeepsItsStart() throws {
        let frame = hex(HAPVectors.frame1)
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        let frames = try decryptor.collect([Array(frame.prefix(30))])
        #expect(frames.isEmpty)
        #expect(decryptor.bufferedByteCount == 30)
        #expect(decryptor.nextCounter == 0)
        let rest = try decryptor.collect([Array(frame.dropFirst(30))])
        #expect(rest.map(\.plaintext) == [ascii(HAPVectors.frame1Plaintext)])
        #expect(decryptor.bufferedByteCount == 0)
    }

    @Test func aTamperedByteStopsTheDirectionWithOneErrorAtTheRightCounter() throws {
        let (bytes, _) = try stream(frameLengths: [100, 200, 300, 400], key: controllerToAccessory)
        var tampered = bytes
        let thirdFrameOffset = (100 + 18) + (200 + 18)
        tampered[thirdFrameOffset + 2 + 150] ^= 0x20
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        var handedOver: [UInt64] = []
        var errors: [HAPFrameDecryptionError] = []
        var generator = SeededRandom(seed: 7)
        var start = 0
        while start < tampered.count {
            let end = min(start + Int.random(in: 1...97, using: &generator), tampered.count)
            do {
                try decryptor.decrypt(Array(tampered[start..<end])) { handedOver.append($0.counter) }
            } catch {
                errors.append(error)
            }
            start = end
        }
        #expect(handedOver == [0, 1])
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.kind == .authenticationFailed)
        #expect(error.counter == 2)
        #expect(error.streamOffset == thirdFrameOffset)
        #expect(error.declaredLength == 300)
        #expect(error.authenticatingCounter == nil)
        #expect(error.searchedCounterWindow == 8)
        #expect(decryptor.failure == error)
        #expect(error.description == "HAP frame 2 at stream offset 336 (300 bytes declared) fails authentication; no counter within ±8 authenticates it: wrong key or altered bytes")
    }

    @Test func aSkippedCounterIsDiagnosed() throws {
        var encryptor = HAPFrameEncryptor(key: accessoryToController)
        var bytes = try encryptor.seal(ascii("first").span.bytes)
        bytes += try encryptor.seal(ascii("second").span.bytes)
        encryptor.nextCounter += 1
        let thirdOffset = bytes.count
        bytes += try encryptor.seal(ascii("third, sealed with counter 3").span.bytes)
        var decryptor = HAPFrameDecryptor(key: accessoryToController)
        var frames: [CollectedFrame] = []
        do {
            frames = try decryptor.collect([bytes])
            Issue.record("a skipped counter went unnoticed")
        } catch {
            #expect(error.counter == 2)
            #expect(error.authenticatingCounter == 3)
            #expect(error.streamOffset == thirdOffset)
            #expect(error.description.hasSuffix("it authenticates with counter 3: the sender skipped 1 counter value or frames are missing"))
        }
        #expect(frames.isEmpty)
        #expect(decryptor.nextCounter == 2)
    }

    @Test func aReusedCounterIsDiagnosedAsNonceReuse() throws {
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory)
        var bytes = try encryptor.seal(ascii("first").span.bytes)
        bytes += try encryptor.seal(ascii("second").span.bytes)
        encryptor.nextCounter = 0
        bytes += try encryptor.seal(ascii("third, sealed with counter 0 again").span.bytes)
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        do {
            _ = try decryptor.collect([bytes])
            Issue.record("a reused counter went unnoticed")
        } catch {
            #expect(error.counter == 2)
            #expect(error.authenticatingCounter == 0)
            #expect(error.description.hasSuffix("it authenticates with counter 0: the sender reused a counter (nonce reuse)"))
        }
    }

    @Test func theCounterSearchCanBeNarrowedOrTurnedOff() throws {
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory, firstCounter: 5)
        let bytes = try encryptor.seal(ascii("sealed with counter 5").span.bytes)
        var narrow = HAPFrameDecryptor(key: controllerToAccessory, configuration: .init(counterSearchWindow: 4))
        var wide = HAPFrameDecryptor(key: controllerToAccessory, configuration: .init(counterSearchWindow: 5))
        var off = HAPFrameDecryptor(key: controllerToAccessory, configuration: .init(counterSearchWindow: 0))
        var results: [UInt64?] = []
        var windows: [Int] = []
        for index in 0..<3 {
            do {
                switch index {
                case 0: _ = try narrow.collect([bytes])
                case 1: _ = try wide.collect([bytes])
                default: _ = try off.collect([bytes])
                }
            } catch {
                results.append(error.authenticatingCounter)
                windows.append(error.searchedCounterWindow)
            }
        }
        #expect(results == [nil, 5, nil])
        #expect(windows == [4, 5, 0])
    }

    @Test func theOtherDirectionsKeyFailsAuthentication() throws {
        var decryptor = HAPFrameDecryptor(key: accessoryToController)
        #expect(throws: HAPFrameDecryptionError.self) { try decryptor.collect([hex(HAPVectors.frame1)]) }
        #expect(decryptor.failure?.counter == 0)
    }

    @Test func piecesAfterAFailureAreIgnored() throws {
        var decryptor = HAPFrameDecryptor(key: accessoryToController)
        _ = try? decryptor.collect([hex(HAPVectors.frame1)])
        let failure = decryptor.failure
        let frames = try decryptor.collect([hex(HAPVectors.frame2)])
        #expect(frames.isEmpty)
        #expect(decryptor.failure == failure)
    }

    @Test func framesLongerThan1024BytesAreDecodedAndFlagged() throws {
        let (bytes, plaintexts) = try stream(frameLengths: [1025, 1024, 0], key: controllerToAccessory)
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        let frames = try decryptor.collect([bytes])
        #expect(frames.map(\.plaintext) == plaintexts)
        #expect(frames.map(\.anomalies) == [.exceedsMaximumLength, [], .empty])
    }

    @Test func aFrameAboveTheConfiguredMaximumStopsAsSoonAsItsLengthArrives() throws {
        let (bytes, _) = try stream(frameLengths: [10, 4000], key: controllerToAccessory)
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory, configuration: .init(maximumFrameLength: 2048))
        var handedOver = 0
        do {
            // Only the first frame and the second frame's length field.
            try decryptor.decrypt(Array(bytes.prefix(28 + 2))) { _ in handedOver += 1 }
            Issue.record("an oversize frame was buffered")
        } catch {
            #expect(error.kind == .frameTooLong(maximumLength: 2048))
            #expect(error.counter == 1)
            #expect(error.streamOffset == 28)
            #expect(error.declaredLength == 4000)
        }
        #expect(handedOver == 1)
        #expect(decryptor.bufferedByteCount == 0)
    }

    @Test func offsetsAndCountersCanStartMidStream() throws {
        var encryptor = HAPFrameEncryptor(key: accessoryToController, firstCounter: 41)
        let bytes = try encryptor.seal(ascii("EVENT/1.0 200 OK\r\n\r\n").span.bytes)
        var decryptor = HAPFrameDecryptor(key: accessoryToController, firstCounter: 41, streamOffset: 1_000)
        let frames = try decryptor.collect([bytes])
        #expect(frames.map(\.counter) == [41])
        #expect(frames.map(\.streamOffset) == [1_000])
        #expect(decryptor.streamOffset == 1_000 + bytes.count)
    }

    @Test func configurationBoundsAreClamped() {
        var configuration = HAPFrameDecryptor.Configuration(maximumFrameLength: 1 << 20, counterSearchWindow: -3)
        #expect(configuration.maximumFrameLength == 65535)
        #expect(configuration.counterSearchWindow == 0)
        configuration.counterSearchWindow = 1 << 30
        configuration.maximumFrameLength = -1
        #expect(configuration.counterSearchWindow == HAPFrameDecryptor.Configuration.largestCounterSearchWindow)
        #expect(configuration.maximumFrameLength == 0)
    }

    @Test func aGapInsideAFrameWithAKnownLengthLosesOnlyThatFrame() throws {
        let (bytes, plaintexts) = try stream(frameLengths: [100, 200, 300], key: controllerToAccessory)
        let secondFrame = 118, thirdFrame = 118 + 218
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        var frames = try decryptor.collect([Array(bytes[..<(secondFrame + 50)])])
        let lost = try decryptor.skipGap(byteCount: 60)
        let insideLostFrame = try decryptor.skipGap(byteCount: 40)
        frames += try decryptor.collect([Array(bytes[(secondFrame + 150)...])])
        #expect(lost == 1)
        #expect(insideLostFrame == nil)
        #expect(frames.map(\.counter) == [0, 2])
        #expect(frames.map(\.streamOffset) == [0, thirdFrame])
        #expect(frames.map(\.plaintext) == [plaintexts[0], plaintexts[2]])
        #expect(decryptor.streamOffset == bytes.count)
    }

    @Test func aGapEndingExactlyAtTheFrameEndResumesAtTheNextFrame() throws {
        let (bytes, plaintexts) = try stream(frameLengths: [100, 200, 300], key: controllerToAccessory)
        let secondFrame = 118, thirdFrame = 118 + 218
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        _ = try decryptor.collect([Array(bytes[..<(secondFrame + 2)])])
        #expect(try decryptor.skipGap(byteCount: thirdFrame - secondFrame - 2) == 1)
        let frames = try decryptor.collect([Array(bytes[thirdFrame...])])
        #expect(frames.map(\.plaintext) == [plaintexts[2]])
        #expect(frames.map(\.counter) == [2])
    }

    @Test func aGapThatHidesAFrameBoundaryStopsTheDirection() throws {
        let (bytes, _) = try stream(frameLengths: [100, 200, 300], key: controllerToAccessory)
        let secondFrame = 118
        // Past the end of the frame in progress.
        var overrun = HAPFrameDecryptor(key: controllerToAccessory)
        _ = try overrun.collect([Array(bytes[..<(secondFrame + 50)])])
        #expect(throws: HAPFrameDecryptionError(.frameBoundaryLost(gapByteCount: 500), counter: 1, streamOffset: secondFrame, declaredLength: 200)) {
            try overrun.skipGap(byteCount: 500)
        }
        // At a frame boundary: the next length field is missing.
        var atBoundary = HAPFrameDecryptor(key: controllerToAccessory)
        _ = try atBoundary.collect([Array(bytes[..<secondFrame])])
        #expect(throws: HAPFrameDecryptionError(.frameBoundaryLost(gapByteCount: 10), counter: 1, streamOffset: secondFrame, declaredLength: nil)) {
            try atBoundary.skipGap(byteCount: 10)
        }
        // Inside the length field.
        var insideLength = HAPFrameDecryptor(key: controllerToAccessory)
        _ = try insideLength.collect([Array(bytes[..<(secondFrame + 1)])])
        #expect(throws: HAPFrameDecryptionError(.frameBoundaryLost(gapByteCount: 10), counter: 1, streamOffset: secondFrame, declaredLength: nil)) {
            try insideLength.skipGap(byteCount: 10)
        }
        let frames = try insideLength.collect([Array(bytes[(secondFrame + 11)...])])
        #expect(frames.isEmpty)
        let description = try #require(insideLength.failure?.description)
        #expect(description == "HAP frame 1 at stream offset 118 (length not captured): a capture gap of 10 bytes hides where the next frame starts")
    }

    @Test func aSecondGapRunningPastTheLostFrameStopsAtTheNextBoundary() throws {
        let (bytes, _) = try stream(frameLengths: [100, 200, 300], key: controllerToAccessory)
        let secondFrame = 118, thirdFrame = 118 + 218
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        _ = try decryptor.collect([Array(bytes[..<(secondFrame + 50)])])
        #expect(try decryptor.skipGap(byteCount: 10) == 1)
        #expect(throws: HAPFrameDecryptionError(.frameBoundaryLost(gapByteCount: 200), counter: 2, streamOffset: thirdFrame, declaredLength: nil)) {
            try decryptor.skipGap(byteCount: 200)
        }
    }

    @Test func randomBytesNeverAuthenticateAndFailAtMostOnce() {
        var generator = SeededRandom(seed: 0xBAD_F00D)
        for _ in 0..<500 {
            let garbage = (0..<Int.random(in: 0...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
            var frames = 0
            var failures = 0
            var start = 0
            while start < garbage.count {
                let end = min(start + Int.random(in: 1...64, using: &generator), garbage.count)
                do {
                    try decryptor.decrypt(Array(garbage[start..<end])) { _ in frames += 1 }
                } catch {
                    failures += 1
                }
                start = end
            }
            #expect(frames == 0)
            #expect(failures <= 1)
        }
    }

    @Test func anEmptyGapChangesNothing() throws {
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        #expect(try decryptor.skipGap(byteCount: 0) == nil)
        let frames = try decryptor.collect([hex(HAPVectors.frame1)])
        #expect(frames.count == 1)
    }
}
