import HTTP1
import Testing
import WireParsing
import TestSupport

@Suite struct HTTPStreamParserMessageTests {
    @Test func aPairSetupRequestCarriesItsTLV8BodyAndItsExactBytes() throws {
        let observations = observe(Fixtures.pairSetupM1Request)
        let message = try #require(messages(observations).first)
        #expect(observations.count == 1)
        #expect(message.kind == .request)
        #expect(message.requestLine == HTTPRequestLine(method: .post, target: "/pair-setup", version: .http1_1))
        #expect(message.statusLine == nil)
        #expect(message.headers == [
            HTTPHeaderField(name: "Host", value: "Lightbulb._hap._tcp.local", offset: 27),
            HTTPHeaderField(name: "Content-Length", value: "6", offset: 60),
            HTTPHeaderField(name: "Content-Type", value: "application/pairing+tlv8", offset: 79),
        ])
        #expect(message.contentType == .pairingTLV8)
        #expect(message.contentLength == 6)
        #expect(message.framing == .contentLength(6))
        #expect(message.body == Fixtures.pairSetupM1TLV8)
        #expect(message.rawBytes == Fixtures.pairSetupM1Request)
        #expect(message.startOffset == 0)
        #expect(message.headerEndOffset == Fixtures.pairSetupM1Request.count - 6)
        #expect(message.endOffset == Fixtures.pairSetupM1Request.count)
        #expect(message.headBytes == Array(Fixtures.pairSetupM1Request.dropLast(6)))
        #expect(message.diagnostics.isEmpty)
    }

    @Test func theBodyCanBeReadWithAByteCursorWithoutCopying() throws {
        var parser = HTTPStreamParser()
        var state: UInt8?
        let request = Fixtures.pairSetupM1Request
        try request.span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
            try parser.feed(buffer) { event in
                guard case .message(let message) = event else { return }
                var cursor = ByteCursor(message.bodySpan, layer: .http, baseOffset: message.headerEndOffset)
                // HAP: Pair Setup M1 begins with the State item, 06 01 01.
                if (try? cursor.readUInt8()) == 0x06, (try? cursor.readUInt8()) == 0x01 {
                    state = try? cursor.readUInt8()
                }
            }
        }
        #expect(state == 1)
    }

    @Test func aBinaryPairingBodyWithLineBreaksInsideIsTakenByLength() throws {
        // The SRP key in M2 holds CR bytes; only Content-Length decides where the body ends.
        #expect(Fixtures.pairSetupM2TLV8.count == 409)
        #expect(Fixtures.pairSetupM2TLV8.contains(0x0D))
        let message = try #require(messages(observe(Fixtures.pairSetupM2Response)).first)
        #expect(message.statusLine == HTTPStatusLine(version: .http1_1, status: .ok, reasonPhrase: "OK"))
        #expect(message.body == Fixtures.pairSetupM2TLV8)
        #expect(message.contentType == .pairingTLV8)
    }

    @Test func aChunkedAccessoryDatabaseIsDechunkedAndLocatedInTheStream() throws {
        let response = Fixtures.chunkedAccessoriesResponse
        let message = try #require(messages(observe(response)).first)
        #expect(message.kind == .response)
        // 1024 bytes, then the rest.
        #expect((1025 ... 2048).contains(Fixtures.accessoryDatabaseJSON.count))
        #expect(message.framing == .chunked(chunkCount: 2))
        #expect(message.body == Fixtures.accessoryDatabaseJSON)
        #expect(message.contentType == .hapJSON)
        #expect(message.contentLength == nil)
        #expect(message.trailers.isEmpty)
        // The chunk framing is not kept, but the offsets let a caller slice its own copy.
        #expect(message.rawBytes == nil)
        #expect(message.endOffset == response.count)
        #expect(message.headBytes == Array(response[0 ..< message.headerEndOffset]))
        #expect(Array(response[message.headerEndOffset ..< message.headerEndOffset + 5]) == Array("400\r\n".utf8))
    }

    @Test func aCharacteristicWriteAndItsMultiStatusAnswerDecode() throws {
        let request = try #require(messages(observe(Fixtures.putCharacteristicsRequest)).first)
        #expect(request.requestLine?.method == .put)
        #expect(request.requestLine?.target == "/characteristics")
        #expect(request.body == Fixtures.writeBody)
        #expect(request.contentType == .hapJSON)

        let response = try #require(messages(observe(Fixtures.multiStatusResponse)).first)
        #expect(response.statusLine?.status == .multiStatus)
        #expect(response.statusLine?.reasonPhrase == "Multi-Status")
        #expect(response.body == Fixtures.multiStatusBody)
    }

    @Test func twoEventsBackToBackInOnePieceAreTwoMessages() {
        let bytes = Fixtures.onEvent + Fixtures.temperatureEvent
        let found = messages(observe(bytes))
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.kind == .event && $0.statusLine?.status == .ok })
        #expect(found.map(\.body) == [Fixtures.onEventBody, Fixtures.temperatureEventBody])
        #expect(found.map(\.startOffset) == [0, Fixtures.onEvent.count])
        #expect(found.last?.endOffset == bytes.count)
        #expect(found.first?.statusLine?.version == HTTPVersion(major: 1, minor: 0))
    }

    @Test func anEventRightAfterAResponseIsNotPartOfIt() {
        let found = messages(observe(Fixtures.noContentResponse + Fixtures.onEvent))
        #expect(found.map(\.kind) == [.response, .event])
        #expect(found.first?.framing == HTTPBodyFraming.none)
        #expect(found.first?.body == [])
        #expect(found.last?.body == Fixtures.onEventBody)
    }

    @Test func aRequestWithoutLengthHasNoBodyEvenWhenBytesFollow() {
        let found = messages(observe(Fixtures.getAccessoriesRequest + Fixtures.getCharacteristicsRequest))
        #expect(found.count == 2)
        #expect(found.first?.framing == HTTPBodyFraming.none)
        #expect(found.last?.requestLine?.target == "/characteristics?id=1.9,1.10&ev=1&meta=1")
    }

    @Test func aResponseWithoutLengthRunsUntilTheStreamIsFinished() {
        let head = Fixtures.text("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x0D, 0x0A, 0xFF, 0xD9]
        let unfinished = observe(head + jpeg, finishing: false)
        #expect(unfinished.isEmpty)
        let found = messages(observe([.bytes(head), .bytes(jpeg)]))
        #expect(found.count == 1)
        #expect(found.first?.framing == .untilClose)
        #expect(found.first?.body == jpeg)
        #expect(found.first?.contentType == .jpeg)
        #expect(found.first?.rawBytes == head + jpeg)
    }

    @Test func finishingInsideAMessageThrowsTruncatedAndReportsTheFragment() {
        let cut = Array(Fixtures.putCharacteristicsRequest.dropLast(5))
        #expect(observe(cut) == [
            .discarded(HTTPDiscardedBytes(range: 0 ..< cut.count, reason: .incompleteMessage)),
            .error(.truncated, offset: cut.count),
        ])
    }

    @Test func emptyLinesBetweenMessagesAreSkippedAndReported() {
        let bytes = Fixtures.text("\r\n") + Fixtures.noContentResponse + Fixtures.text("\r\n\r\n") + Fixtures.onEvent
        let observations = observe(bytes)
        let responseEnd = 2 + Fixtures.noContentResponse.count
        #expect(observations.count == 4)
        #expect(observations[0] == .discarded(HTTPDiscardedBytes(range: 0 ..< 2, reason: .emptyLines)))
        #expect(observations[1].message?.startOffset == 2)
        #expect(observations[2] == .discarded(HTTPDiscardedBytes(range: responseEnd ..< responseEnd + 4, reason: .emptyLines)))
        #expect(observations[3].message?.kind == .event)
    }

    @Test func theEmptyLineIsFoundWhenItsCarriageReturnCameInAnEarlierPiece() {
        let head = Fixtures.text("GET /accessories HTTP/1.1\r\nHost: x\r\n\r")
        let found = messages(observe([.bytes(head), .bytes(Fixtures.text("\n")), .bytes(Fixtures.noContentResponse)]))
        #expect(found.map(\.kind) == [.request, .response])
        #expect(found.first?.endOffset == head.count + 1)
    }

    @Test func aTrailerSectionIsKeptWithTheMessage() throws {
        let bytes = Fixtures.text(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=value\r\nabcd\r\n0\r\nX-Checksum: 1f\r\n\r\n")
        let message = try #require(messages(observe(bytes)).first)
        #expect(message.body == Array("abcd".utf8))
        #expect(message.framing == .chunked(chunkCount: 1))
        #expect(message.trailers == [HTTPHeaderField(name: "X-Checksum", value: "1f", offset: bytes.count - 18)])
        #expect(message.endOffset == bytes.count)
    }
}

@Suite struct HTTPStreamParserSplitTests {
    @Test(arguments: Fixtures.all)
    func everySplitPointGivesTheSameMessagesAsOnePiece(_ fixture: Fixture) {
        let whole = observe(fixture.bytes)
        #expect(messages(whole).count == 1)
        #expect(!whole.contains { if case .error = $0 { true } else { false } })
        for cut in 0 ... fixture.bytes.count {
            let split = observe(pieces(of: fixture.bytes, cutAt: [cut]))
            #expect(split == whole, "cut at \(cut)")
        }
        #expect(observe(oneBytePieces(fixture.bytes)) == whole)
    }

    @Test(arguments: [
        Fixture("controller stream", Fixtures.controllerStream),
        Fixture("accessory stream", Fixtures.accessoryStream),
    ])
    func aPipelinedStreamParsesTheSameInAnyPieces(_ fixture: Fixture) {
        let whole = observe(fixture.bytes)
        #expect(messages(whole).count == (fixture.bytes == Fixtures.controllerStream ? 4 : 9))
        #expect(coveredRanges(whole) == contiguousRanges(whole, total: fixture.bytes.count))
        #expect(observe(oneBytePieces(fixture.bytes)) == whole)
        var generator = SeededRandom(seed: 0x4841_5053)
        for _ in 0 ..< 200 {
            let cuts = (0 ..< Int.random(in: 1 ... 12, using: &generator))
                .map { _ in Int.random(in: 0 ... fixture.bytes.count, using: &generator) }
                .sorted()
            #expect(observe(pieces(of: fixture.bytes, cutAt: cuts)) == whole, "cuts \(cuts)")
        }
    }

    private func contiguousRanges(_ observations: [Observation], total: Int) -> [Range<Int>] {
        var start = 0
        return coveredRanges(observations).map { range in
            defer { start = range.upperBound }
            return start ..< range.upperBound
        }
    }
}
