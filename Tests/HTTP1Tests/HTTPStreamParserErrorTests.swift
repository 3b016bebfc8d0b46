import HTTP1
import Testing
import WireParsing
import TestSupport

/// The first error a run threw, as (code, offset).
private func firstError(_ observations: [Observation]) -> Observation? {
    observations.first { if case .error = $0 { true } else { false } }
}

private func error(in text: String, limits: HTTPLimits = HTTPLimits()) -> Observation? {
    firstError(observe(Fixtures.text(text), limits: limits))
}

@Suite struct HTTPStreamParserMalformedInputTests {
    @Test func aStartLineThatBreaksTheGrammarIsMalformedAtTheFirstBadByte() {
        #expect(error(in: "GET/ HTTP/1.1\r\n\r\n") == .error(.malformed, offset: 3))
        #expect(error(in: "GET  / HTTP/1.1\r\n\r\n") == .error(.malformed, offset: 4))
        #expect(error(in: "GET / HTTP/1.1 extra\r\n\r\n") == .error(.malformed, offset: 14))
        #expect(error(in: "GET / HTTX/1.1\r\n\r\n") == .error(.malformed, offset: 6))
        #expect(error(in: "HTTP/1.1 2O0 OK\r\n\r\n") == .error(.malformed, offset: 10))
        #expect(error(in: "HTTP/1.1 099 Too Low\r\n\r\n") == .error(.malformed, offset: 9))
        #expect(error(in: "HTTP/1.1  200 OK\r\n\r\n") == .error(.malformed, offset: 9))
        #expect(error(in: "GET / HTTP/1.1\rX\r\n\r\n") == .error(.malformed, offset: 15))
    }

    @Test func anotherMajorVersionIsUnsupported() {
        #expect(error(in: "HTTP/2.0 200 OK\r\n\r\n") == .error(.unsupported, offset: 5))
        #expect(error(in: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .error(.unsupported, offset: 11))
        #expect(error(in: "EVENT/2.0 200 OK\r\n\r\n") == .error(.unsupported, offset: 6))
    }

    @Test func encryptedFramesFedAsPlaintextFailAtTheirFirstByte() {
        // HAP: a session frame starts with its length, little-endian: 0x0400 here.
        let frame: [UInt8] = [0x00, 0x04] + Array(repeating: 0x5A, count: 1024 + 16)
        let observations = observe(frame)
        #expect(firstError(observations) == .error(.malformed, offset: 0))
        #expect(messages(observations).isEmpty)
    }

    @Test func aFieldLineWithoutColonIsMalformedWhereTheNameStops() {
        #expect(error(in: "GET / HTTP/1.1\r\nHost\r\n\r\n") == .error(.malformed, offset: 20))
        #expect(error(in: "GET / HTTP/1.1\r\n: empty name\r\n\r\n") == .error(.malformed, offset: 16))
    }

    @Test func whitespaceBeforeTheColonIsMalformed() {
        // RFC 9112 §5.1.
        #expect(error(in: "GET / HTTP/1.1\r\nHost : x\r\n\r\n") == .error(.malformed, offset: 20))
    }

    @Test func aFoldedLineIsMalformedInARequestAndUnsupportedInAResponse() {
        #expect(error(in: "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") == .error(.malformed, offset: 22))
        #expect(error(in: "HTTP/1.1 200 OK\r\nA: b\r\n\tc\r\n\r\n") == .error(.unsupported, offset: 23))
    }

    @Test func controlCharactersAndBareCarriageReturnsInValuesAreMalformed() {
        #expect(error(in: "GET / HTTP/1.1\r\nA: b\u{01}c\r\n\r\n") == .error(.malformed, offset: 20))
        #expect(error(in: "GET / HTTP/1.1\r\nA: b\u{7F}c\r\n\r\n") == .error(.malformed, offset: 20))
        #expect(error(in: "GET / HTTP/1.1\r\nA: b\rc\r\n\r\n") == .error(.malformed, offset: 21))
    }

    @Test func aContentLengthThatIsNotOneDecimalNumberIsMalformed() {
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n") == .error(.malformed, offset: 35))
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == .error(.malformed, offset: 33))
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: \r\n\r\n") == .error(.malformed, offset: 33))
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: 5, 6\r\n\r\nhello") == .error(.malformed, offset: 36))
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 6\r\n\r\nhello") == .error(.malformed, offset: 52))
    }

    @Test func aHugeContentLengthExceedsTheLimitWithoutWaitingForTheBody() {
        let overflowing = observe(Fixtures.text("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"))
        #expect(firstError(overflowing) == .error(.limitExceeded, offset: 33))
        let large = observe(Fixtures.text("HTTP/1.1 200 OK\r\nContent-Length: 17179869184\r\n\r\n{"))
        #expect(firstError(large) == .error(.limitExceeded, offset: 33))
        let small = HTTPLimits(maxBodySize: 4)
        #expect(error(in: "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", limits: small) == .error(.limitExceeded, offset: 33))
        #expect(messages(observe(Fixtures.text("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nhell"), limits: small)).count == 1)
    }

    @Test func headersThatNeverEndFailOnceTheBlockOutgrowsItsLimit() {
        // Long lines, so that the block outgrows its size before its field count.
        let line = Fixtures.text("X-Filler: " + String(repeating: "a", count: 900) + "\r\n")
        let endless = Fixtures.text("GET / HTTP/1.1\r\n") + Array((0 ..< 100).map { _ in line }.joined())
        let observations = observe(oneKilobytePieces(endless))
        #expect(firstError(observations) == .error(.limitExceeded, offset: 64 * 1024))
        let tight = HTTPLimits(maxHeaderBlockSize: 200)
        #expect(firstError(observe(endless, limits: tight)) == .error(.limitExceeded, offset: 200))
        // At the limit exactly, the block is accepted.
        let fits = Fixtures.text("GET / HTTP/1.1\r\n") + line + line + Fixtures.text("\r\n")
        #expect(messages(observe(fits, limits: HTTPLimits(maxHeaderBlockSize: fits.count))).count == 1)
        #expect(firstError(observe(fits, limits: HTTPLimits(maxHeaderBlockSize: fits.count - 1))) == .error(.limitExceeded, offset: fits.count - 1))
    }

    @Test func aStartLineThatNeverEndsFailsAtItsLimit() {
        let endless = Fixtures.text("GET /" + String(repeating: "a", count: 20_000))
        #expect(firstError(observe(oneKilobytePieces(endless))) == .error(.limitExceeded, offset: 8 * 1024))
    }

    @Test func tooManyFieldsFailAtTheFirstFieldOverTheLimit() {
        let request = Fixtures.text("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n")
        #expect(firstError(observe(request, limits: HTTPLimits(maxHeaderCount: 3))) == .error(.limitExceeded, offset: 34))
        #expect(messages(observe(request, limits: HTTPLimits(maxHeaderCount: 4))).count == 1)
    }

    private static let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test func anInvalidChunkSizeIsMalformedAtItsFirstByte() {
        let head = Self.chunkedHead.utf8.count
        #expect(error(in: Self.chunkedHead + "zz\r\n") == .error(.malformed, offset: head))
        #expect(error(in: Self.chunkedHead + "0x1A\r\n") == .error(.malformed, offset: head + 1))
        #expect(error(in: Self.chunkedHead + "\r\n") == .error(.malformed, offset: head))
        #expect(error(in: Self.chunkedHead + "4 x\r\nabcd\r\n0\r\n\r\n") == .error(.malformed, offset: head + 2))
        #expect(error(in: Self.chunkedHead + "4;a=\u{01}\r\nabcd\r\n0\r\n\r\n") == .error(.malformed, offset: head + 4))
    }

    @Test func aHugeChunkSizeExceedsTheLimitAtTheStartOfItsLine() {
        let head = Self.chunkedHead.utf8.count
        #expect(error(in: Self.chunkedHead + "FFFFFFFFFFFFFFFFFFFFFFFF\r\n") == .error(.limitExceeded, offset: head))
        #expect(error(in: Self.chunkedHead + "1000001\r\n") == .error(.limitExceeded, offset: head))
        let tight = HTTPLimits(maxBodySize: 6)
        #expect(error(in: Self.chunkedHead + "4\r\nabcd\r\n3\r\nefg\r\n0\r\n\r\n", limits: tight) == .error(.limitExceeded, offset: head + 9))
        let longLine = HTTPLimits(maxChunkLineLength: 8)
        #expect(error(in: Self.chunkedHead + "4;name=value\r\nabcd\r\n0\r\n\r\n", limits: longLine) == .error(.limitExceeded, offset: head + 8))
    }

    @Test func chunkDataMustEndWithALineEnding() {
        let head = Self.chunkedHead.utf8.count
        #expect(error(in: Self.chunkedHead + "4\r\nabcdX\r\n0\r\n\r\n") == .error(.malformed, offset: head + 7))
        #expect(error(in: Self.chunkedHead + "4\r\nabcd\rX0\r\n\r\n") == .error(.malformed, offset: head + 8))
    }

    @Test func aCloseDelimitedBodyFailsOnceItOutgrowsTheBodyLimit() {
        let head = "HTTP/1.1 200 OK\r\n\r\n"
        let observations = observe(Fixtures.text(head + "0123456789"), limits: HTTPLimits(maxBodySize: 8))
        #expect(firstError(observations) == .error(.limitExceeded, offset: head.utf8.count + 8))
    }
}

@Suite struct HTTPStreamParserFramingTests {
    @Test func transferEncodingOverridesContentLengthAndIsFlagged() throws {
        let bytes = Fixtures.text("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n")
        let message = try #require(messages(observe(bytes)).first)
        #expect(message.body == Array("hi".utf8))
        #expect(message.diagnostics == [HTTPDiagnostic(.contentLengthWithTransferEncoding, offset: 33)])
    }

    @Test func chunkedMustBeTheFinalCodingAndAppliedOnce() throws {
        let gzipped = Fixtures.text("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n")
        #expect(try #require(messages(observe(gzipped)).first).framing == .chunked(chunkCount: 1))
        #expect(error(in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n") == .error(.malformed, offset: 36))
        #expect(error(in: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == .error(.malformed, offset: 36))
        #expect(error(in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\n\r\n") == .error(.malformed, offset: 36))
        let closeDelimited = messages(observe(Fixtures.text("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz")))
        #expect(closeDelimited.first?.framing == .untilClose)
    }

    @Test func http10MessagesCannotUseTransferEncoding() {
        // RFC 9112 §6.1; HAP's EVENT/1.0 is not HTTP/1.0 and may.
        #expect(error(in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == .error(.malformed, offset: 36))
        let event = messages(observe(Fixtures.text("EVENT/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")))
        #expect(event.first?.body == Array("{}".utf8))
    }

    @Test func responsesThatCannotHaveABodyEndAtTheirHeaderBlock() {
        let observations = observe(Fixtures.text("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello"))
        let message = messages(observations).first
        #expect(message?.framing == HTTPBodyFraming.none)
        #expect(message?.diagnostics == [HTTPDiagnostic(.contentLengthOnBodilessResponse, offset: 41)])
        // The bytes the sender added anyway are read as the start of the next message.
        #expect(observations.suffix(2) == [
            .discarded(HTTPDiscardedBytes(range: 46 ..< 51, reason: .incompleteMessage)),
            .error(.truncated, offset: 51),
        ])

        let notModified = messages(observe(Fixtures.text("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n")))
        #expect(notModified.first?.diagnostics == [])
        #expect(notModified.first?.contentLength == 5)
        let interim = messages(observe(Fixtures.text("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")))
        #expect(interim.map { $0.statusLine?.status } == [HTTPStatus(rawValue: 100), .noContent])
    }

    @Test func anEventWithoutContentLengthHasNoBody() {
        let bytes = Fixtures.text("EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\n\r\n") + Fixtures.onEvent
        let found = messages(observe(bytes))
        #expect(found.count == 2)
        #expect(found.first?.framing == HTTPBodyFraming.none)
        #expect(found.first?.diagnostics == [HTTPDiagnostic(.eventWithoutContentLength, offset: 0)])
    }

    @Test func bareLineFeedsAreAcceptedAndFlaggedOnce() throws {
        let bytes = Fixtures.text("HTTP/1.1 200 OK\nContent-Length: 2\n\nhi")
        let message = try #require(messages(observe(bytes)).first)
        #expect(message.body == Array("hi".utf8))
        #expect(message.diagnostics == [HTTPDiagnostic(.bareLineFeed, offset: 15)])
        let chunked = Fixtures.text("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nhi\n0\n\n")
        #expect(try #require(messages(observe(chunked)).first).diagnostics == [HTTPDiagnostic(.bareLineFeed, offset: 48)])
    }

    @Test func aRepeatedEqualContentLengthIsAcceptedAndFlagged() throws {
        let bytes = Fixtures.text("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nhi")
        let message = try #require(messages(observe(bytes)).first)
        #expect(message.body == Array("hi".utf8))
        #expect(message.diagnostics == [HTTPDiagnostic(.repeatedContentLength, offset: 52)])
    }

    @Test func aStatusLineWithoutReasonPhraseIsAccepted() throws {
        let message = try #require(messages(observe(Fixtures.text("HTTP/1.1 204\r\n\r\n"))).first)
        #expect(message.statusLine == HTTPStatusLine(version: .http1_1, status: .noContent, reasonPhrase: ""))
    }
}

@Suite struct HTTPStreamParserRecoveryTests {
    @Test func afterAnErrorTheRestOfThePieceIsParsedOnResume() {
        let bad = Fixtures.text("HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nhi\r\n")
        let observations = observe(Fixtures.multiStatusResponse + bad + Fixtures.onEvent + Fixtures.noContentResponse)
        let start = Fixtures.multiStatusResponse.count
        let eventStart = start + bad.count
        #expect(observations.count == 6)
        #expect(observations[0].message?.statusLine?.status == .multiStatus)
        // An error in the start line gives up the message from its second byte on.
        #expect(observations[1] == .discarded(HTTPDiscardedBytes(range: start ..< start + 1, reason: .failedMessage)))
        #expect(observations[2] == .error(.malformed, offset: start + 10))
        #expect(observations[3] == .discarded(HTTPDiscardedBytes(range: start + 1 ..< eventStart, reason: .unrecognisedBytes)))
        #expect(observations[4].message?.startOffset == eventStart)
        #expect(observations[5].message?.statusLine?.status == .noContent)
    }

    @Test func aHeaderBlockMissingItsEmptyLineGivesUpItsLastLineToTheNextMessage() {
        // The 204 never ends its block, so the event's start line is read as a field line and
        // fails; resynchronisation resumes at that line and recovers the event.
        let broken = Fixtures.text("HTTP/1.1 204 No Content\r\nServer: x\r\n")
        let observations = observe(broken + Fixtures.onEvent)
        #expect(observations.prefix(2) == [
            .discarded(HTTPDiscardedBytes(range: 0 ..< broken.count, reason: .failedMessage)),
            .error(.malformed, offset: broken.count + 5),
        ])
        #expect(messages(observations).map(\.startOffset) == [broken.count])
        #expect(messages(observations).first?.body == Fixtures.onEventBody)
    }

    @Test func aGapDropsThePartialMessageAndResynchronisesAtTheNextStartLine() {
        let first = Array(Fixtures.onEvent.prefix(30))
        let after = Fixtures.text("2,\"value\":0}]}\r\n") + Fixtures.temperatureEvent
        let observations = observe([.bytes(first), .gap(40), .bytes(after)])
        #expect(observations.prefix(3) == [
            .discarded(HTTPDiscardedBytes(range: 0 ..< 30, reason: .incompleteMessage)),
            .discarded(HTTPDiscardedBytes(range: 30 ..< 70, reason: .missingBytes)),
            .discarded(HTTPDiscardedBytes(range: 70 ..< 86, reason: .unrecognisedBytes)),
        ])
        #expect(observations.count == 4)
        #expect(observations.last?.message?.startOffset == 86)
        #expect(observations.last?.message?.body == Fixtures.temperatureEventBody)
        #expect(observations.last?.message?.rawBytes == Fixtures.temperatureEvent)
    }

    @Test func aMessageRightAfterAGapIsKept() {
        let observations = observe([.bytes(Fixtures.noContentResponse), .gap(500), .bytes(Fixtures.onEvent)])
        #expect(messages(observations).map(\.startOffset) == [0, Fixtures.noContentResponse.count + 500])
    }

    @Test func resynchronisationFindsAStartLineSplitAcrossPieces() {
        let after = Fixtures.text("garbage\r\n") + Fixtures.temperatureEvent + Fixtures.noContentResponse
        let whole = observe([.gap(7), .bytes(after)])
        #expect(messages(whole).count == 2)
        for cut in 0 ... after.count {
            #expect(observe([.gap(7)] + pieces(of: after, cutAt: [cut])) == whole, "cut at \(cut)")
        }
        #expect(observe([.gap(7)] + oneBytePieces(after)) == whole)
    }

    @Test func linesInsideABodyAreNotTakenForStartLines() {
        let junk = Fixtures.text("{\"a\":1}\r\nGETTING /x\r\nHTTP/1.1x\r\nEVENT/1.1 \r\npost /lower\r\n")
        let observations = observe([.gap(1), .bytes(junk + Fixtures.onEvent)])
        #expect(messages(observations).map(\.startOffset) == [1 + junk.count])
    }

    @Test func errorsInSeveralMessagesOfOnePieceAreEachReported() {
        let bytes = Fixtures.text("BAD\u{01}\r\n\r\n") + Fixtures.onEvent + Fixtures.text("HTTP/1.1 abc\r\n\r\n") + Fixtures.noContentResponse
        let observations = observe(bytes)
        let errors = observations.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 2)
        #expect(messages(observations).map(\.kind) == [.event, .response])
        for cut in 0 ... bytes.count {
            #expect(observe(pieces(of: bytes, cutAt: [cut])) == observations, "cut at \(cut)")
        }
    }

    @Test func everyByteLandsInExactlyOneMessageOrDiscardedStretch() {
        let scenarios: [[StreamInput]] = [
            [.bytes(Fixtures.accessoryStream)],
            [.bytes(Fixtures.text("\r\nBAD\r\n\r\n") + Fixtures.onEvent), .gap(12), .bytes(Fixtures.text("tail\r\n") + Fixtures.noContentResponse)],
            [.bytes(Array(Fixtures.chunkedAccessoriesResponse.prefix(700))), .gap(3), .bytes(Fixtures.multiStatusResponse)],
            [.bytes(Fixtures.text("HTTP/1.1 200 OK\r\n\r\nopen-ended"))],
            [.bytes(Fixtures.putCharacteristicsRequest.dropLast(3).map { $0 })],
        ]
        for inputs in scenarios {
            let total = inputs.reduce(0) { sum, input in
                switch input {
                case .bytes(let bytes): sum + bytes.count
                case .gap(let count): sum + Int(count)
                }
            }
            var expectedStart = 0
            for range in coveredRanges(observe(inputs)) {
                #expect(range.lowerBound == expectedStart)
                #expect(!range.isEmpty)
                expectedStart = range.upperBound
            }
            #expect(expectedStart == total)
        }
    }
}

@Suite struct HTTPStreamParserHostileInputTests {
    /// Real messages with bytes flipped, dropped and duplicated, fed in random pieces with
    /// random gaps and tight limits: nothing may crash, and every byte must still be accounted
    /// for exactly once.
    @Test func mutatedStreamsNeverCrashAndAccountForEveryByte() {
        var generator = SeededRandom(seed: 0x6875_7a7a)
        let interesting: [UInt8] = [0x0D, 0x0A, 0x3A, 0x20, 0x09, 0x00, 0x30, 0x46, 0x3B, 0xFF]
        let limits = [HTTPLimits(), HTTPLimits(maxStartLineLength: 40, maxHeaderBlockSize: 120, maxHeaderCount: 3, maxBodySize: 300, maxChunkSize: 64, maxChunkLineLength: 12)]
        for round in 0 ..< 300 {
            var bytes = Fixtures.accessoryStream
            for _ in 0 ..< Int.random(in: 1 ... 12, using: &generator) {
                let position = Int.random(in: 0 ..< bytes.count, using: &generator)
                switch Int.random(in: 0 ..< 3, using: &generator) {
                case 0: bytes[position] = interesting.randomElement(using: &generator)!
                case 1: bytes.remove(at: position)
                default: bytes.insert(interesting.randomElement(using: &generator)!, at: position)
                }
            }
            var inputs: [StreamInput] = []
            var total = 0
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1 ... 700, using: &generator))
                inputs.append(.bytes(Array(bytes[start ..< end])))
                total += end - start
                if Int.random(in: 0 ..< 10, using: &generator) == 0 {
                    let gap = Int.random(in: 0 ... 50, using: &generator)
                    inputs.append(.gap(UInt64(gap)))
                    total += gap
                }
                start = end
            }
            var expectedStart = 0
            for range in coveredRanges(observe(inputs, limits: limits[round % 2])) {
                #expect(range.lowerBound == expectedStart, "round \(round)")
                expectedStart = range.upperBound
            }
            #expect(expectedStart == total, "round \(round)")
        }
    }

    /// The same mutated streams give the same messages, discards and errors in one piece and
    /// one byte at a time.
    @Test func mutatedStreamsParseTheSameInAnyPieces() {
        var generator = SeededRandom(seed: 0x7370_6c69)
        let interesting: [UInt8] = [0x0D, 0x0A, 0x3A, 0x20, 0x09, 0x00, 0x30, 0x46, 0x3B, 0xFF]
        let limits = HTTPLimits(maxStartLineLength: 40, maxHeaderBlockSize: 120, maxHeaderCount: 3, maxBodySize: 300, maxChunkSize: 64, maxChunkLineLength: 12)
        for round in 0 ..< 60 {
            var bytes = Fixtures.accessoryStream
            for _ in 0 ..< Int.random(in: 1 ... 8, using: &generator) {
                bytes[Int.random(in: 0 ..< bytes.count, using: &generator)] = interesting.randomElement(using: &generator)!
            }
            let whole = observe(bytes, limits: round % 2 == 0 ? limits : HTTPLimits())
            #expect(observe(oneBytePieces(bytes), limits: round % 2 == 0 ? limits : HTTPLimits()) == whole, "round \(round)")
        }
    }
}

private func oneKilobytePieces(_ bytes: [UInt8]) -> [StreamInput] {
    stride(from: 0, to: bytes.count, by: 1024).map { .bytes(Array(bytes[$0 ..< min($0 + 1024, bytes.count)])) }
}
