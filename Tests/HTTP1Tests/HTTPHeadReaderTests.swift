@testable import HTTP1
import Testing
import WireParsing

@Suite struct HTTPHeadReaderTests {
    /// Hands `text` to `reader` line by line, as the stream parser does once each line feed is in;
    /// returns what the last line was.
    private func read(
        _ text: String, into reader: inout HTTPHeadReader, baseOffset: Int = 0, limits: HTTPLimits = HTTPLimits(),
        diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) -> HTTPHeadReader.Line? {
        var outcome: HTTPHeadReader.Line?
        var lineStart = 0
        let bytes = Array(text.utf8)
        while let lineFeed = bytes[lineStart...].firstIndex(of: 0x0A) {
            let line = Array(bytes[lineStart ... lineFeed])
            let offset = baseOffset + lineStart
            outcome = try line.span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
                try reader.read(line: HTTPText(buffer: buffer, baseOffset: offset), limits: limits, diagnostics: &diagnostics)
            }
            lineStart = lineFeed + 1
        }
        return outcome
    }

    @Test func aHeaderBlockEndsWithItsEmptyLineAndHandsOverItsStartLine() throws {
        var reader = HTTPHeadReader()
        var diagnostics = HTTPDiagnostics()
        let outcome = try read("PUT /characteristics HTTP/1.1\r\nContent-Length: 12\r\n\r\n", into: &reader, baseOffset: 500, diagnostics: &diagnostics)
        #expect(reader.length == 53)
        #expect(reader.fieldsStart == 31)
        #expect(reader.fieldCount == 1)
        #expect(reader.contentLength?.value == 12)
        #expect(reader.contentLength?.offset == 547)
        #expect(diagnostics.all.isEmpty)
        guard case .endOfHead(.request(let line)) = outcome else {
            Issue.record("expected the end of a request head, got \(String(describing: outcome))")
            return
        }
        #expect(line.method == 0 ..< 3)
        #expect(line.target == 4 ..< 20)
        #expect(line.version == .http1_1)
    }

    @Test func aTrailerSectionMayBeEmptyAndKeepsNoFramingFields() throws {
        var diagnostics = HTTPDiagnostics()
        var empty = HTTPHeadReader(trailersOf: .response)
        guard case .endOfTrailers = try read("\r\n", into: &empty, diagnostics: &diagnostics) else {
            Issue.record("an empty trailer section did not end")
            return
        }
        var trailers = HTTPHeadReader(trailersOf: .response)
        guard case .endOfTrailers = try read("Content-Length: 9\r\nX: y\r\n\r\n", into: &trailers, diagnostics: &diagnostics) else {
            Issue.record("a trailer section did not end")
            return
        }
        #expect(trailers.fieldCount == 2)
        #expect(trailers.contentLength == nil)
    }

    @Test func aLineThatOnlyStartsWithCarriageReturnIsNotTheEmptyLine() {
        var reader = HTTPHeadReader(trailersOf: .response)
        var diagnostics = HTTPDiagnostics()
        var thrown: DecodeError?
        do { _ = try read("\rX\n", into: &reader, diagnostics: &diagnostics) } catch { thrown = error }
        #expect(thrown == DecodeError(.malformed, layer: .http, offset: 1, expected: ""))
    }

    @Test func theFieldCountLimitFailsAtTheLineOverIt() {
        var reader = HTTPHeadReader()
        var diagnostics = HTTPDiagnostics()
        var thrown: DecodeError?
        do {
            _ = try read("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n", into: &reader, limits: HTTPLimits(maxHeaderCount: 1), diagnostics: &diagnostics)
        } catch { thrown = error }
        #expect(thrown?.code == .limitExceeded)
        #expect(thrown?.offset == 22)
    }

    @Test func framingFollowsRFC9112Section6Point3() throws {
        let limits = HTTPLimits()
        var diagnostics = HTTPDiagnostics()
        func framing(_ text: String) throws(DecodeError) -> HTTPHeadReader.Framing? {
            var reader = HTTPHeadReader()
            guard case .endOfHead(let startLine) = try read(text, into: &reader, diagnostics: &diagnostics) else { return nil }
            return try reader.framing(of: startLine, blockOffset: 0, limits: limits, diagnostics: &diagnostics)
        }
        #expect(try framing("GET / HTTP/1.1\r\n\r\n") == HTTPHeadReader.Framing.none)
        #expect(try framing("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n") == .contentLength(0))
        #expect(try framing("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n") == .chunked)
        #expect(try framing("HTTP/1.1 200 OK\r\n\r\n") == .untilClose)
        #expect(try framing("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\n") == .contentLength(3))
        #expect(try framing("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n") == HTTPHeadReader.Framing.none)
        #expect(try framing("EVENT/1.0 200 OK\r\n\r\n") == HTTPHeadReader.Framing.none)
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
