import WireParsing

/// A complete header block: the start line, the field lines and the empty line that ends them,
/// with what the fields say about the body. RFC 9112 §2.1.
struct HTTPHead {
    var startLine: HTTPStartLine
    var fields: [HTTPFieldLine]
    /// The absolute stream offset of the first byte.
    var offset: Int
    /// Bytes from the start line through the empty line.
    var length: Int
    var contentLength: ContentLength?
    var transferEncoding: TransferEncoding?

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

    /// Reads the header block that fills `cursor`'s remaining bytes and moves the cursor past it.
    /// `startLine` is the block's start line with the index after it, when the caller has read
    /// it already. `fieldCapacity` is the number of field lines, known from scanning, so that
    /// the field array is allocated once.
    init(
        parsing cursor: inout ByteCursor, startLine knownStartLine: (HTTPStartLine, next: Int)? = nil,
        fieldCapacity: Int = 0, diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) {
        let baseOffset = cursor.offset
        let head = try cursor.readRemaining().withUnsafeBytes { (buffer) throws(DecodeError) -> HTTPHead in
            let text = HTTPText(buffer: buffer, baseOffset: baseOffset)
            let (startLine, fieldsStart) = if let knownStartLine {
                knownStartLine
            } else {
                try HTTPStartLine.parse(text, diagnostics: &diagnostics)
            }
            var fields: [HTTPFieldLine] = []
            fields.reserveCapacity(fieldCapacity)
            // RFC 9112 §5.2: a server must reject obs-fold in a request; elsewhere it is legal
            // but obsolete, and unfolding it would mean rewriting the value.
            let obsoleteFoldCode: DecodeError.Code = startLine.kind == .request ? .malformed : .unsupported
            let end = try HTTPHead.parseFields(
                text, from: fieldsStart, storageBase: 0, obsoleteFoldCode: obsoleteFoldCode,
                into: &fields, diagnostics: &diagnostics)
            guard end == buffer.count else { throw text.malformed("the end of the header block", at: end) }
            var head = HTTPHead(startLine: startLine, fields: fields, offset: baseOffset, length: buffer.count)
            for field in fields {
                try head.interpretFramingField(field, text, diagnostics: &diagnostics)
            }
            return head
        }
        self = head
    }

    private init(startLine: HTTPStartLine, fields: [HTTPFieldLine], offset: Int, length: Int) {
        self.startLine = startLine
        self.fields = fields
        self.offset = offset
        self.length = length
    }

    /// Reads field lines from `index` through the empty line that ends the block; returns the
    /// index after that line. Shared by the header block and the trailer section.
    static func parseFields(
        _ text: HTTPText, from index: Int, storageBase: Int, obsoleteFoldCode: DecodeError.Code,
        into fields: inout [HTTPFieldLine], diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) -> Int {
        var lineStart = index
        while true {
            guard lineStart < text.count else {
                throw DecodeError(.truncated, layer: .http, offset: text.baseOffset + lineStart, expected: "the empty line ending the header block")
            }
            let first = text[lineStart]
            if first == ASCII.carriageReturn || first == ASCII.lineFeed {
                return try text.lineEnding(at: lineStart, "the empty line ending the header block", diagnostics: &diagnostics)
            }
            let (field, next) = try HTTPFieldLine.parse(
                text, at: lineStart, storageBase: storageBase, obsoleteFoldCode: obsoleteFoldCode,
                diagnostics: &diagnostics)
            fields.append(field)
            lineStart = next
        }
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

    /// Decides how the body ends. RFC 9112 §6.3, with HAP's rule for events.
    func framing(limits: HTTPLimits, diagnostics: inout HTTPDiagnostics) throws(DecodeError) -> Framing {
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
                throw DecodeError(.limitExceeded, layer: .http, offset: contentLength.offset, expected: "a Content-Length of at most \(limits.maxBodySize) bytes")
            }
            return .contentLength(value)
        }
        switch startLine.kind {
        case .request:
            return .none
        case .event:
            diagnostics.note(.eventWithoutContentLength, offset: offset)
            return .none
        case .response:
            return .untilClose
        }
    }
}
