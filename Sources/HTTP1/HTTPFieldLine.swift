import WireParsing

/// One `field-name ":" OWS field-value OWS` line, as offsets into the message's bytes.
/// RFC 9112 §5.
struct HTTPFieldLine: Hashable, Sendable {
    /// Indices into the message's storage.
    var name: Range<Int>
    var value: Range<Int>
    /// The absolute stream offset of the first byte of the name.
    var offset: Int

    /// Reads the field line starting at `index` of `text`. `storageBase` is the index of
    /// `text[0]` in the message's storage; `obsoleteFoldCode` is what a line starting with
    /// whitespace (RFC 9112 §5.2 obs-fold) throws. Returns the line and the index of the next.
    static func parse(
        _ text: HTTPText, at index: Int, storageBase: Int, obsoleteFoldCode: DecodeError.Code,
        diagnostics: inout HTTPDiagnostics
    ) throws(DecodeError) -> (HTTPFieldLine, next: Int) {
        if ASCII.isWhitespace(text[index]) {
            // RFC 9112 §5.2: a request with obs-fold is rejected; a response's obs-fold would have
            // to be rewritten into the value, which this zero-copy decoder does not do.
            throw DecodeError(
                obsoleteFoldCode, layer: .http, offset: text.baseOffset + index,
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
        let line = HTTPFieldLine(
            name: storageBase + index ..< storageBase + nameEnd,
            value: storageBase + valueStart ..< storageBase + valueEnd,
            offset: text.baseOffset + index)
        return (line, next)
    }
}
