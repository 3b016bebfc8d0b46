/// Something a message did that the parser tolerated but a careful sender would not do.
///
/// The message is decoded as RFC 9112 says a recipient should; the diagnostic tells the audit
/// where the sender deviated. A message carries at most one diagnostic of each kind, the first.
public struct HTTPDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A line ended with LF alone instead of CR LF. RFC 9112 §2.2 lets a recipient accept it.
        case bareLineFeed
        /// `Content-Length` next to `Transfer-Encoding`, which overrides it. RFC 9112 §6.3 calls
        /// this a possible smuggling attempt.
        case contentLengthWithTransferEncoding
        /// `Content-Length` given more than once (or as a list) with one value. RFC 9110 §8.6.
        case repeatedContentLength
        /// A non-zero `Content-Length` on a 1xx or 204 response, which has no body regardless.
        /// RFC 9110 §8.6. The bytes it announces, if sent, are skipped as unrecognised.
        case contentLengthOnBodilessResponse
        /// An `EVENT/1.0` without `Content-Length` or `Transfer-Encoding`, decoded as having no
        /// body: events interleave with responses, so one cannot run until the connection closes.
        case eventWithoutContentLength
    }

    /// What the sender did.
    public var kind: Kind
    /// The absolute stream offset of the line or value concerned.
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String { "\(kind) at byte \(offset)" }
}
