import WireParsing

/// One `field-name ":" OWS field-value OWS` line, as indices into the bytes it was read from.
/// RFC 9112 §5.
struct HTTPFieldLine: Hashable, Sendable {
    var name: Range<Int>
    /// Without the whitespace around it.
    var value: Range<Int>

    /// Reads and checks the field line starting at `index` of `text`, of a request's block
    /// when `inRequest`. Returns the line and the index of the next.
    @inline(__always)
    static func parse(
        _ text: HTTPText, at index: Int, inRequest: Bool, diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) -> (HTTPFieldLine, next: Int) {
        if ASCII.isWhitespace(text[index]) {
            // RFC 9112 §5.2: a server must reject obs-fold in a request; elsewhere it is legal
            // but obsolete, and unfolding it would mean rewriting the value, which this
            // zero-copy decoder does not do.
            throw DecodeError(
                inRequest ? .malformed : .unsupported, layer: .http, offset: text.baseOffset + index,
                expected: "a field name at the start of the line, not a folded continuation (RFC 9112 §5.2)")
        }
        var nameEnd = index
        while nameEnd < text.count, ASCII.isTokenCharacter(text[nameEnd]) { nameEnd += 1 }
        guard nameEnd > index else { throw text.malformed("a field name", at: index) }
        guard nameEnd < text.count, text[nameEnd] == ASCII.colon else {
            if nameEnd < text.count, ASCII.isWhitespace(text[nameEnd]) {
                throw text.malformed("':' directly after the field name, without whitespace (RFC 9112 §5.1)", at: nameEnd)
            }
            throw text.malformed("':' after the field name", at: nameEnd)
        }
        var valueStart = nameEnd + 1
        while valueStart < text.count, ASCII.isWhitespace(text[valueStart]) { valueStart += 1 }
        let (contentEnd, next) = try text.lineContent(from: valueStart, "a field value", diagnostics: &diagnostics)
        var valueEnd = contentEnd
        while valueEnd > valueStart, ASCII.isWhitespace(text[valueEnd - 1]) { valueEnd -= 1 }
        return (HTTPFieldLine(name: index ..< nameEnd, value: valueStart ..< valueEnd), next)
    }

    /// Finds the field lines of `buffer[range]` again, a block `parse` has accepted, up to its
    /// empty line; stops early when `visit` returns false. Nothing is checked a second time,
    /// and nothing outside `range` is read whatever the bytes.
    static func forEach(in buffer: UnsafeRawBufferPointer, _ range: Range<Int>, _ visit: (HTTPFieldLine) -> Bool) {
        var lineStart = range.lowerBound
        while lineStart < range.upperBound {
            let lineFeed = ASCII.firstIndex(of: ASCII.lineFeed, in: buffer, from: lineStart, to: range.upperBound)
                ?? range.upperBound
            let contentEnd = lineFeed > lineStart && buffer[lineFeed - 1] == ASCII.carriageReturn ? lineFeed - 1 : lineFeed
            guard contentEnd > lineStart else { return }
            let colon = ASCII.firstIndex(of: ASCII.colon, in: buffer, from: lineStart, to: contentEnd) ?? contentEnd
            var valueStart = min(colon + 1, contentEnd)
            var valueEnd = contentEnd
            while valueStart < valueEnd, ASCII.isWhitespace(buffer[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, ASCII.isWhitespace(buffer[valueEnd - 1]) { valueEnd -= 1 }
            guard visit(HTTPFieldLine(name: lineStart ..< colon, value: valueStart ..< valueEnd)) else { return }
            lineStart = lineFeed + 1
        }
    }
}
