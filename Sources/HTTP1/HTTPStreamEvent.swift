/// What the stream parser reports, in stream order.
///
/// Messages and discarded stretches together cover every byte the parser was fed or told to
/// skip, each exactly once.
public enum HTTPStreamEvent: Sendable {
    case message(HTTPMessage)
    case discarded(HTTPDiscardedBytes)
}

/// A stretch of the stream that is not part of any delivered message.
public struct HTTPDiscardedBytes: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// Empty lines between messages, which RFC 9112 §2.2 tells a recipient to ignore.
        case emptyLines
        /// The beginning of a message that an error abandoned; the error was thrown.
        case failedMessage
        /// The beginning of a message cut off by a gap in the stream or by its end.
        case incompleteMessage
        /// Bytes the capture does not hold (`skip(byteCount:)`).
        case missingBytes
        /// Bytes passed over while looking for the next start line after a gap or an error.
        case unrecognisedBytes
    }

    /// Absolute stream offsets.
    public var range: Range<Int>
    /// Why the bytes are not part of a message.
    public var reason: Reason

    public init(range: Range<Int>, reason: Reason) {
        self.range = range
        self.reason = reason
    }

    public var description: String { "\(reason) \(range.lowerBound)..<\(range.upperBound)" }
}
