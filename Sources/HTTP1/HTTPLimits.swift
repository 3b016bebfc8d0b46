import WireParsing

extension DecodeError.Layer {
    /// HTTP/1.1 and HAP's `EVENT/1.0` messages.
    public static let http = DecodeError.Layer("http")
}

extension LimitName {
    public static let httpStartLine = LimitName("http.start-line")
    public static let httpHeaderBlock = LimitName("http.header-block")
    public static let httpHeaders = LimitName("http.headers")
    public static let httpBody = LimitName("http.body")
    public static let httpChunk = LimitName("http.chunk")
    public static let httpChunkLine = LimitName("http.chunk-line")
}

/// The bounds the stream parser enforces on untrusted input.
///
/// Every bound is checked before memory is committed to it: a `Content-Length` or chunk size
/// above its limit fails at once instead of reserving storage, and a header block that never
/// ends fails as soon as it outgrows its limit. A message at a limit is accepted; one byte more
/// throws `DecodeError.Code.limitExceeded`.
public struct HTTPLimits: Hashable, Sendable {
    /// The longest start line, counting its line ending. HAP's longest are
    /// `GET /characteristics?id=…` reads naming many characteristics.
    public let maxStartLineLength: Int
    /// The largest header block (start line, field lines and the empty line), and separately
    /// the largest trailer section of a chunked body.
    public let maxHeaderBlockSize: Int
    /// The most field lines in a header block or a trailer section.
    public let maxHeaderCount: Int
    /// The largest body, after de-chunking. `/accessories` of a large bridge and camera
    /// snapshots (`/resource`) are the biggest HAP bodies, at a few hundred kilobytes.
    public let maxBodySize: Int
    /// The largest single chunk of a chunked body.
    public let maxChunkSize: Int
    /// The longest chunk-size line, extensions and line ending included.
    public let maxChunkLineLength: Int

    /// A negative bound is taken as zero.
    public init(
        maxStartLineLength: Int = 8 * 1024,
        maxHeaderBlockSize: Int = 64 * 1024,
        maxHeaderCount: Int = 128,
        maxBodySize: Int = 16 * 1024 * 1024,
        maxChunkSize: Int = 16 * 1024 * 1024,
        maxChunkLineLength: Int = 1024
    ) {
        self.maxStartLineLength = max(maxStartLineLength, 0)
        self.maxHeaderBlockSize = max(maxHeaderBlockSize, 0)
        self.maxHeaderCount = max(maxHeaderCount, 0)
        self.maxBodySize = max(maxBodySize, 0)
        self.maxChunkSize = max(maxChunkSize, 0)
        self.maxChunkLineLength = max(maxChunkLineLength, 0)
    }
}
