/// Something a message did that the parser tolerated but a careful sender would not do.
///
/// The message is decoded as RFC 9112 says a recipient should; the diagnostic tells the audit
/// where the sender deviated. A message carries at most one diagnostic of each kind, the first.
public typealias HTTPDiagnostic = HTTPMessageDiagnostic<HTTPDeviation>

/// What the sender of an HTTP message did that an `HTTPDiagnostic` reports; its offset is the
/// absolute stream offset of the line or value concerned.
public enum HTTPDeviation: Hashable, Sendable {
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

/// Something an HTTP message did that the parser tolerated and kept, instead of failing the
/// message: what (`Kind`) and the absolute offset of the part concerned. The message itself
/// (`HTTPDiagnostic`) and a HAP request target's query (`HAPRequestTargetDiagnostic`) each report
/// their own kinds in this one shape.
public struct HTTPMessageDiagnostic<Kind: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    public var kind: Kind
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String { "\(kind) at byte \(offset)" }
}
