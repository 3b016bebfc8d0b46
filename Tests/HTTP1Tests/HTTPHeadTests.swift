@testable import HTTP1
import Testing
import WireParsing

@Suite struct HTTPHeadTests {
    private func parse(_ text: String, baseOffset: Int = 0) throws(DecodeError) -> (HTTPHead, [HTTPDiagnostic]) {
        let bytes = Array(text.utf8)
        var cursor = ByteCursor(bytes.span.bytes, layer: .http, baseOffset: baseOffset)
        var diagnostics = HTTPDiagnostics()
        let head = try HTTPHead(parsing: &cursor, diagnostics: &diagnostics)
        return (head, diagnostics.all)
    }

    @Test func aHeadIsReadToItsEmptyLineWithOffsetsFromTheCursor() throws {
        let (head, diagnostics) = try parse("PUT /characteristics HTTP/1.1\r\nContent-Length: 12\r\n\r\n", baseOffset: 500)
        #expect(head.offset == 500)
        #expect(head.length == 53)
        #expect(head.fields.count == 1)
        #expect(head.fields.first?.offset == 531)
        #expect(head.fields.first?.value == 547 - 500 ..< 549 - 500)
        #expect(head.contentLength?.value == 12)
        #expect(head.contentLength?.offset == 547)
        #expect(diagnostics.isEmpty)
        guard case .request(let line) = head.startLine else {
            Issue.record("not a request line")
            return
        }
        #expect(line.method == 0 ..< 3)
        #expect(line.target == 4 ..< 20)
        #expect(line.version == .http1_1)
    }

    @Test func bytesAfterTheEmptyLineAreNotPartOfAHead() {
        var thrown: DecodeError?
        do { _ = try parse("HTTP/1.1 204 No Content\r\n\r\nX") } catch { thrown = error }
        #expect(thrown == DecodeError(.malformed, layer: .http, offset: 27, expected: ""))
    }

    @Test func aHeadWithoutEmptyLineIsTruncated() {
        var thrown: DecodeError?
        do { _ = try parse("HTTP/1.1 204 No Content\r\nA: b\r\n") } catch { thrown = error }
        #expect(thrown?.code == .truncated)
        #expect(thrown?.offset == 31)
    }

    @Test func framingFollowsRFC9112Section6Point3() throws {
        let limits = HTTPLimits()
        var diagnostics = HTTPDiagnostics()
        func framing(_ text: String) throws(DecodeError) -> HTTPHead.Framing {
            try parse(text).0.framing(limits: limits, diagnostics: &diagnostics)
        }
        #expect(try framing("GET / HTTP/1.1\r\n\r\n") == .none)
        #expect(try framing("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n") == .contentLength(0))
        #expect(try framing("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n") == .chunked)
        #expect(try framing("HTTP/1.1 200 OK\r\n\r\n") == .untilClose)
        #expect(try framing("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\n") == .contentLength(3))
        #expect(try framing("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n") == .none)
        #expect(try framing("EVENT/1.0 200 OK\r\n\r\n") == .none)
        #expect(try framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: ,chunked ;q=1,\r\n\r\n") == .chunked)
    }
}

@Suite struct HTTPChunkSizeLineTests {
    private func read(_ text: String, limits: HTTPLimits = HTTPLimits(), bodySize: Int = 0) throws(DecodeError) -> HTTPChunkSizeLine.Line? {
        var line = HTTPChunkSizeLine()
        var result: HTTPChunkSizeLine.Line?
        // One byte per call: the line must be read the same way whatever the pieces.
        for (index, byte) in text.utf8.enumerated() where result == nil {
            result = try [byte].span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
                try line.consume(buffer, from: 0, windowOffset: 1000 + index, limits: limits, bodySize: bodySize)
            }
        }
        return result
    }

    @Test func sizesAreHexadecimalInEitherCaseWithLeadingZerosAllowed() throws {
        #expect(try read("3D3\r\n")?.size == 0x3D3)
        #expect(try read("3d3\r\n")?.size == 0x3D3)
        #expect(try read("0000000000000000000010\r\n")?.size == 16)
        #expect(try read("0\r\n")?.size == 0)
    }

    @Test func extensionsAndWhitespaceBeforeThemArePassedOver() throws {
        #expect(try read("1a;name=value;quoted=\"a b\"\r\n")?.size == 26)
        #expect(try read("1a ; name\r\n")?.size == 26)
        #expect(try read("1a  \r\n")?.size == 26)
    }

    @Test func aBareLineFeedEndsTheLineAndIsReported() throws {
        let line = try #require(try read("5\n"))
        #expect(line.size == 5)
        #expect(line.bareLineFeedOffset == 1001)
        #expect(try read("5\r\n")?.bareLineFeedOffset == nil)
    }

    @Test func anUnfinishedLineAsksForMore() throws {
        #expect(try read("12;ext") == nil)
        #expect(try read("12\r") == nil)
    }

    @Test func theBodyLimitCountsEarlierChunks() {
        var thrown: DecodeError?
        do { _ = try read("10\r\n", limits: HTTPLimits(maxBodySize: 100), bodySize: 85) } catch { thrown = error }
        #expect(thrown?.code == .limitExceeded)
        #expect(thrown?.offset == 1000)
        #expect((try? read("10\r\n", limits: HTTPLimits(maxBodySize: 100), bodySize: 84))??.size == 16)
    }
}

@Suite struct HTTPHeaderBlockScannerTests {
    private func scan(_ pieces: [String], hasStartLine: Bool = true, limits: HTTPLimits = HTTPLimits()) throws(DecodeError) -> [HTTPHeaderBlockScanner.Progress] {
        var scanner = HTTPHeaderBlockScanner(hasStartLine: hasStartLine)
        var progress: [HTTPHeaderBlockScanner.Progress] = []
        for piece in pieces {
            try Array(piece.utf8).span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
                var index = 0
                while true {
                    let step = try scanner.scan(buffer, from: index, blockOffset: 0, limits: limits)
                    progress.append(step)
                    guard case .startLineComplete(let end) = step else { break }
                    index = end
                }
            }
        }
        return progress
    }

    @Test func theEmptyLineIsFoundWhenItsCarriageReturnCameInAnEarlierPiece() throws {
        #expect(try scan(["GET / HTTP/1.1\r\nA: b\r\n\r", "\nrest"]) == [
            .startLineComplete(end: 16), .needsMore, .blockComplete(end: 1),
        ])
    }

    @Test func aLineHoldingOnlyCarriageReturnAndTextIsNotEmpty() throws {
        #expect(try scan(["GET / HTTP/1.1\r\n", "\rX\r\n", "\r\n"]) == [
            .startLineComplete(end: 16), .needsMore, .needsMore, .blockComplete(end: 2),
        ])
    }

    @Test func aTrailerSectionMayBeEmpty() throws {
        #expect(try scan(["\r\nnext"], hasStartLine: false) == [.blockComplete(end: 2)])
        #expect(try scan(["\n"], hasStartLine: false) == [.blockComplete(end: 1)])
    }
}
