/// How the end of a message body was determined. RFC 9112 §6.3.
public enum HTTPBodyFraming: Hashable, Sendable {
    /// No body by rule: a request without `Content-Length` or `Transfer-Encoding`, a 1xx, 204
    /// or 304 response, or an event without `Content-Length`.
    case none
    /// `Content-Length` bytes followed the header block.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`; the body is the concatenation of `chunkCount` non-empty
    /// chunks. HomeKitADK sends `/accessories` this way.
    case chunked(chunkCount: Int)
    /// A response without length: the body ran until the connection closed.
    case untilClose
}
