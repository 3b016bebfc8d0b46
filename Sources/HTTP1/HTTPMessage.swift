import WireParsing

/// One request, response or HAP event, decoded from a stream.
///
/// The message owns one byte buffer: its header block exactly as sent, then its body (de-chunked
/// when it was chunked), then any trailer section. Header fields, the start line and the body
/// are views into that buffer; strings are made only when read.
public struct HTTPMessage: Sendable {
    public enum Kind: Hashable, Sendable {
        case request
        case response
        /// HAP's unsolicited `EVENT/1.0` notification: a response nobody asked for, which request
        /// and response matching must skip. HAP §5.3 of the fact sheet.
        case event
    }

    /// Request, response or event, from the start line.
    public let kind: Kind
    /// How the end of the body was found.
    public let framing: HTTPBodyFraming
    /// The `Content-Length` the header block gave, whether or not it framed the body; nil
    /// when absent or beyond `Int`.
    public let contentLength: Int?
    /// What the sender did that the parser tolerated, at most one of each kind.
    public let diagnostics: [HTTPDiagnostic]

    /// The absolute stream offset of the first byte of the start line.
    public let startOffset: Int
    /// The absolute stream offset just past the empty line that ends the header block: where
    /// the body (or its first chunk-size line) begins.
    public let headerEndOffset: Int
    /// The absolute stream offset just past the last byte of the message.
    public let endOffset: Int

    private let storage: [UInt8]
    private let startLine: HTTPStartLine
    /// Storage indices of the field lines of the header block and of the trailer section.
    private let fieldBlock: Range<Int>
    private let trailerBlock: Range<Int>
    /// The stream offset of storage index 0 as the trailer section's offsets count it.
    private let trailerOffsetOfStorageStart: Int
    private let bodyRange: Range<Int>

    init(
        storage: [UInt8], head: HTTPHead, startOffset: Int, trailerBlock: Range<Int>, trailerOffset: Int,
        framing: HTTPBodyFraming, bodyCount: Int, endOffset: Int, diagnostics: [HTTPDiagnostic]
    ) {
        self.storage = storage
        self.startLine = head.startLine
        self.kind = head.startLine.kind
        self.fieldBlock = head.fieldsStart ..< head.length
        self.trailerBlock = trailerBlock
        self.trailerOffsetOfStorageStart = trailerOffset - trailerBlock.lowerBound
        self.framing = framing
        self.contentLength = head.contentLength
        self.diagnostics = diagnostics
        self.startOffset = startOffset
        self.headerEndOffset = startOffset + head.length
        self.endOffset = endOffset
        self.bodyRange = head.length ..< head.length + bodyCount
    }

    /// The header fields, in wire order with their original case. Found in the message's bytes
    /// on each access.
    public var headers: HTTPHeaders {
        HTTPHeaders(storage: storage, block: fieldBlock, offsetOfStorageStart: startOffset)
    }

    /// The trailer section of a chunked body; empty otherwise.
    public var trailers: HTTPHeaders {
        HTTPHeaders(storage: storage, block: trailerBlock, offsetOfStorageStart: trailerOffsetOfStorageStart)
    }

    /// Whether this is an `EVENT/1.0` notification.
    public var isEvent: Bool { kind == .event }

    /// The stream offsets the message occupied.
    public var streamRange: Range<Int> { startOffset ..< endOffset }

    /// The request line of a request; nil for responses and events.
    public var requestLine: HTTPRequestLine? {
        guard case .request(let layout) = startLine else { return nil }
        return HTTPRequestLine(method: method(layout), target: text(layout.target), version: layout.version)
    }

    /// The method of a request, without the rest of its line; nil for responses and events.
    public var method: HTTPMethod? {
        guard case .request(let layout) = startLine else { return nil }
        return method(layout)
    }

    /// The target of a request as sent, without the rest of its line; nil for responses and
    /// events.
    public var requestTarget: String? {
        guard case .request(let layout) = startLine else { return nil }
        return text(layout.target)
    }

    /// The status line of a response or an event; nil for requests.
    public var statusLine: HTTPStatusLine? {
        guard case .status(let layout) = startLine else { return nil }
        return HTTPStatusLine(version: layout.version, status: layout.status, reasonPhrase: text(layout.reasonPhrase))
    }

    /// The status of a response or an event.
    public var status: HTTPStatus? {
        guard case .status(let layout) = startLine else { return nil }
        return layout.status
    }

    /// The HAP reading of a request's target, with diagnostic offsets in the stream.
    public var hapRequestTarget: HAPRequestTarget? {
        guard case .request(let layout) = startLine else { return nil }
        var cursor = ByteCursor(storage.span.bytes.extracting(layout.target), layer: .http, baseOffset: startOffset + layout.target.lowerBound)
        return HAPRequestTarget(parsing: &cursor)
    }

    /// The media type of the first `Content-Type` field, found without allocating for HAP's
    /// media types.
    public var contentType: HAPContentType? {
        storage.withUnsafeBytes { bytes in
            var contentType: HAPContentType?
            HTTPFieldLine.forEach(in: bytes, fieldBlock) { line in
                guard ASCII.equalsIgnoringCase(bytes, line.name, "content-type") else { return true }
                contentType = HAPContentType(bytes: bytes, line.value)
                return false
            }
            return contentType
        }
    }

    /// The body, de-chunked.
    public var body: ArraySlice<UInt8> { storage[bodyRange] }

    /// Whether the body is `bytes`, compared a word at a time: a controller fetches an unchanged
    /// `/accessories` body of tens of kilobytes on every connection.
    public func hasBody(_ bytes: [UInt8]) -> Bool {
        bytes.count == bodyRange.count
            && storage.withUnsafeBytes { whole in
                bytes.withUnsafeBytes { ASCII.equals(UnsafeRawBufferPointer(rebasing: whole[bodyRange]), $0) }
            }
    }

    /// The body as a span for `ByteCursor`-based decoders (TLV8, JSON).
    public var bodySpan: RawSpan {
        @_lifetime(borrow self)
        get { storage.span.bytes.extracting(bodyRange) }
    }

    /// The start line, the field lines and the empty line, exactly as sent.
    public var headBytes: ArraySlice<UInt8> { storage[0 ..< headerEndOffset - startOffset] }

    /// The whole message exactly as sent, when the parser kept it whole: always, except for a
    /// chunked body, whose chunk framing is not kept. `streamRange` locates it in the stream.
    public var rawBytes: ArraySlice<UInt8>? {
        if case .chunked = framing { return nil }
        return storage[0 ..< endOffset - startOffset]
    }

    private func method(_ layout: HTTPRequestLine.Layout) -> HTTPMethod {
        storage.withUnsafeBytes { HTTPMethod(bytes: UnsafeRawBufferPointer(rebasing: $0[layout.method])) }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: storage[range], as: UTF8.self)
    }
}

extension HTTPMessage: CustomStringConvertible {
    /// The start line and the body size: `EVENT/1.0 200 OK (56-byte body)`.
    public var description: String {
        String(decoding: headBytes.prefix { $0 != ASCII.carriageReturn && $0 != ASCII.lineFeed }, as: UTF8.self)
            + " (\(bodyRange.count)-byte body)"
    }
}
