import WireParsing

/// A header block or a trailer section, read one complete line at a time, as the lines arrive.
/// RFC 9112 §2.1, §5 and §7.1.2.
///
/// Every line is checked as soon as its line feed is in, so errors come in stream order however
/// the stream is split. Only what frames the body is kept: the field lines are found again in
/// the message's bytes when someone asks for them, so that a message costs one allocation.
struct HTTPHeadReader {
    /// Whether the block begins with a start line: a header block does, a trailer section not.
    let hasStartLine: Bool
    /// For a trailer section, whether it ends a request.
    private let trailersOfRequest: Bool
    /// Bytes of the complete lines read so far: the block-relative offset of the next line.
    private(set) var length = 0
    private(set) var fieldCount = 0
    private(set) var startLine: HTTPStartLine?
    /// The block-relative offset of the first field line (or of the empty line).
    private(set) var fieldsStart = 0
    private(set) var contentLength: ContentLength?
    private(set) var transferEncoding: TransferEncoding?

    /// What the `Content-Length` fields said. RFC 9110 §8.6.
    struct ContentLength {
        /// nil when the number does not fit in an `Int`.
        var value: Int?
        /// The absolute offset of the first value.
        var offset: Int
    }

    /// What the `Transfer-Encoding` fields said, all of them read as one list. RFC 9112 §6.1.
    struct TransferEncoding {
        var codingCount = 0
        var chunkedCount = 0
        var finalCodingIsChunked = false
        /// The absolute offset of the first field's value.
        var offset: Int
    }

    /// How the body ends, as decided from the head. RFC 9112 §6.3.
    enum Framing: Equatable {
        case none
        case contentLength(Int)
        case chunked
        case untilClose
    }

    /// What a complete line was.
    enum Line {
        case startOrField
        /// The empty line ending a header block, whose start line it hands over.
        case endOfHead(HTTPStartLine)
        case endOfTrailers
    }

    /// A reader for a message's header block.
    @inline(__always)
    init() {
        hasStartLine = true
        trailersOfRequest = false
    }

    /// A reader for the trailer section of a message of `kind`.
    init(trailersOf kind: HTTPMessage.Kind) {
        hasStartLine = false
        trailersOfRequest = kind == .request
    }

    /// Whether the start line is still to come.
    var awaitsStartLine: Bool { hasStartLine && startLine == nil }

    /// Whether the block belongs to a request, whose rules are stricter.
    private var inRequest: Bool {
        hasStartLine ? startLine?.kind == .request : trailersOfRequest
    }

    /// Reads `line`, one complete line through its line feed, at block-relative offset `length`.
    mutating func read(line: HTTPText, limits: HTTPLimits, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> Line {
        defer { length += line.count }
        if awaitsStartLine {
            (startLine, _) = try HTTPStartLine.parse(line, diagnostics: &diagnostics)
            fieldsStart = line.count
            return .startOrField
        }
        let first = line[0]
        if first == ASCII.carriageReturn || first == ASCII.lineFeed {
            let end = try line.lineEnding(at: 0, "the empty line ending the header block", diagnostics: &diagnostics)
            guard end == line.count else { throw line.malformed("the empty line ending the header block", at: 0) }
            return startLine.map { .endOfHead($0) } ?? .endOfTrailers
        }
        fieldCount += 1
        guard fieldCount <= limits.maxHeaderCount else {
            throw line.limitExceeded("at most \(limits.maxHeaderCount) header fields", .httpHeaders, at: 0)
        }
        let (field, _) = try HTTPFieldLine.parse(line, at: 0, inRequest: inRequest, diagnostics: &diagnostics)
        if hasStartLine {
            try interpretFramingField(field, line, diagnostics: &diagnostics)
        }
        return .startOrField
    }

    /// Takes note of `Content-Length` and `Transfer-Encoding`, the fields that frame the body.
    private mutating func interpretFramingField(_ field: HTTPFieldLine, _ text: HTTPText, diagnostics: inout HTTPDiagnostics) throws(DecodeError) {
        switch field.name.count {
        case 14 where ASCII.equalsIgnoringCase(text.buffer, field.name, "content-length"):
            let value = try Self.parseContentLength(text, field.value)
            if let previous = contentLength {
                guard previous.value == value else {
                    throw text.malformed("one Content-Length value (RFC 9110 §8.6)", at: field.value.lowerBound)
                }
                diagnostics.note(.repeatedContentLength, offset: text.baseOffset + field.value.lowerBound)
            } else {
                contentLength = ContentLength(value: value, offset: text.baseOffset + field.value.lowerBound)
            }
        case 17 where ASCII.equalsIgnoringCase(text.buffer, field.name, "transfer-encoding"):
            var encoding = transferEncoding ?? TransferEncoding(offset: text.baseOffset + field.value.lowerBound)
            try Self.parseTransferCodings(text, field.value, into: &encoding)
            transferEncoding = encoding
        default:
            break
        }
    }

    /// Reads `1*DIGIT`, or a list of equal ones (`42, 42`), which RFC 9110 §8.6 lets a
    /// recipient accept. Returns nil for a number too large for an `Int`.
    private static func parseContentLength(_ text: HTTPText, _ range: Range<Int>) throws(DecodeError) -> Int? {
        var result: Int?? = .none
        var elementStart = range.lowerBound
        while true {
            let elementEnd = ASCII.firstIndex(of: ASCII.comma, in: text.buffer, from: elementStart, to: range.upperBound)
                ?? range.upperBound
            var start = elementStart
            var end = elementEnd
            while start < end, ASCII.isWhitespace(text[start]) { start += 1 }
            while end > start, ASCII.isWhitespace(text[end - 1]) { end -= 1 }
            guard start < end else { throw text.malformed("a decimal Content-Length", at: start) }
            var value: Int? = 0
            for index in start ..< end {
                guard ASCII.isDigit(text[index]) else { throw text.malformed("a decimal Content-Length", at: index) }
                value = value.flatMap { current in
                    let (shifted, overflowA) = current.multipliedReportingOverflow(by: 10)
                    let (sum, overflowB) = shifted.addingReportingOverflow(Int(text[index] &- 0x30))
                    return overflowA || overflowB ? nil : sum
                }
            }
            if case .some(let earlier) = result, earlier != value {
                throw text.malformed("one Content-Length value (RFC 9110 §8.6)", at: start)
            }
            result = .some(value)
            guard elementEnd < range.upperBound else { break }
            elementStart = elementEnd + 1
        }
        return result ?? nil
    }

    /// Reads a `Transfer-Encoding` list: codings with optional parameters, empty elements
    /// ignored (RFC 9110 §5.6.1).
    private static func parseTransferCodings(_ text: HTTPText, _ range: Range<Int>, into encoding: inout TransferEncoding) throws(DecodeError) {
        var elementStart = range.lowerBound
        while elementStart <= range.upperBound {
            let elementEnd = ASCII.firstIndex(of: ASCII.comma, in: text.buffer, from: elementStart, to: range.upperBound)
                ?? range.upperBound
            var nameStart = elementStart
            while nameStart < elementEnd, ASCII.isWhitespace(text[nameStart]) { nameStart += 1 }
            if nameStart < elementEnd {
                var nameEnd = nameStart
                while nameEnd < elementEnd, ASCII.isTokenCharacter(text[nameEnd]) { nameEnd += 1 }
                guard nameEnd > nameStart else { throw text.malformed("a transfer coding", at: nameStart) }
                var rest = nameEnd
                while rest < elementEnd, ASCII.isWhitespace(text[rest]) { rest += 1 }
                guard rest == elementEnd || text[rest] == ASCII.semicolon else {
                    throw text.malformed("',' or ';' after a transfer coding", at: rest)
                }
                let isChunked = ASCII.equalsIgnoringCase(text.buffer, nameStart ..< nameEnd, "chunked")
                encoding.codingCount += 1
                encoding.chunkedCount += isChunked ? 1 : 0
                encoding.finalCodingIsChunked = isChunked
            }
            elementStart = elementEnd + 1
        }
    }

    /// Decides how the body ends, for the message whose start line is `startLine`, at absolute
    /// offset `blockOffset`. RFC 9112 §6.3, with HAP's rule for events.
    func framing(
        of startLine: HTTPStartLine, blockOffset: Int, limits: HTTPLimits, diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) -> Framing {
        if case .status(let line) = startLine, line.status.forbidsBody {
            if let contentLength, contentLength.value != 0, line.status != .notModified {
                diagnostics.note(.contentLengthOnBodilessResponse, offset: contentLength.offset)
            }
            return .none
        }
        if let transferEncoding {
            // RFC 9112 §6.1: HTTP/1.0 has no transfer codings. EVENT/1.0 is HAP's, not HTTP/1.0.
            if startLine.kind != .event, startLine.version == .http1_0 {
                throw DecodeError(.malformed, layer: .http, offset: transferEncoding.offset, expected: "no Transfer-Encoding in an HTTP/1.0 message (RFC 9112 §6.1)")
            }
            guard transferEncoding.codingCount > 0 else {
                throw DecodeError(.malformed, layer: .http, offset: transferEncoding.offset, expected: "a transfer coding")
            }
            guard transferEncoding.chunkedCount <= 1 else {
                throw DecodeError(.malformed, layer: .http, offset: transferEncoding.offset, expected: "chunked applied once (RFC 9112 §6.1)")
            }
            if let contentLength {
                diagnostics.note(.contentLengthWithTransferEncoding, offset: contentLength.offset)
            }
            if transferEncoding.finalCodingIsChunked { return .chunked }
            guard startLine.kind != .request else {
                throw DecodeError(.malformed, layer: .http, offset: transferEncoding.offset, expected: "chunked as the final transfer coding of a request (RFC 9112 §6.3)")
            }
            return .untilClose
        }
        if let contentLength {
            guard let value = contentLength.value, value <= limits.maxBodySize else {
                throw DecodeError(.limitExceeded, layer: .http, offset: contentLength.offset, expected: "a Content-Length of at most \(limits.maxBodySize) bytes", limit: .httpBody)
            }
            return .contentLength(value)
        }
        switch startLine.kind {
        case .request:
            return .none
        case .event:
            diagnostics.note(.eventWithoutContentLength, offset: blockOffset)
            return .none
        case .response:
            return .untilClose
        }
    }
}

/// What a complete header block says, kept while the body arrives.
struct HTTPHead {
    var startLine: HTTPStartLine
    /// The offset of the first field line from the start of the block.
    var fieldsStart: Int
    /// Bytes from the start line through the empty line.
    var length: Int
    var contentLength: Int?
    var framing: HTTPHeadReader.Framing
}
