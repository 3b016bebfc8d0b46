import WireParsing

extension DecodeError.Layer {
    /// HTTP/1.1 and HAP's `EVENT/1.0` messages.
    public static let http = DecodeError.Layer("http")
}

/// The bounds the stream parser enforces on untrusted input.
///
/// Every bound is checked before memory is committed to it: a `Content-Length` or chunk size
/// above its limit fails at once instead of reserving storage, and a header block that never
/// ends fails as soon as it outgrows its limit. A message at a limit is accepted; one byte more
/// throws `DecodeError.Code.limitExceeded`. A negative bound behaves as zero.
public struct HTTPLimits: Hashable, Sendable {
    /// The longest start line, counting its line ending. HAP's longest are
    /// `GET /characteristics?id=…` reads naming many characteristics.
    public var maxStartLineLength: Int
    /// The largest header block (start line, field lines and the empty line), and separately
    /// the largest trailer section of a chunked body.
    public var maxHeaderBlockSize: Int
    /// The most field lines in a header block or a trailer section.
    public var maxHeaderCount: Int
    /// The largest body, after de-chunking. `/accessories` of a large bridge and camera
    /// snapshots (`/resource`) are the biggest HAP bodies, at a few hundred kilobytes.
    public var maxBodySize: Int
    /// The largest single chunk of a chunked body.
    public var maxChunkSize: Int
    /// The longest chunk-size line, extensions and line ending included.
    public var maxChunkLineLength: Int

    public init(
        maxStartLineLength: Int = 8 * 1024,
        maxHeaderBlockSize: Int = 64 * 1024,
        maxHeaderCount: Int = 128,
        maxBodySize: Int = 16 * 1024 * 1024,
        maxChunkSize: Int = 16 * 1024 * 1024,
        maxChunkLineLength: Int = 1024
    ) {
        self.maxStartLineLength = maxStartLineLength
        self.maxHeaderBlockSize = maxHeaderBlockSize
        self.maxHeaderCount = maxHeaderCount
        self.maxBodySize = maxBodySize
        self.maxChunkSize = maxChunkSize
        self.maxChunkLineLength = maxChunkLineLength
    }
}
