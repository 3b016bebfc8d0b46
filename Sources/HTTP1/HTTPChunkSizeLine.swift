import WireParsing

/// One chunk-size line of a chunked body, read as it arrives:
/// `chunk-size [ chunk-ext ] CRLF`. RFC 9112 §7.1.
///
/// Lines are a few bytes long, so this reads byte by byte and keeps no copy. Chunk extensions
/// are checked for control characters and otherwise passed over: no HAP implementation sends
/// them.
struct HTTPChunkSizeLine {
    private enum Phase {
        case size
        /// Whitespace after the size, before `;` or the line ending.
        case whitespace
        case extensions
        /// CR seen; LF must follow.
        case lineFeed
    }

    private var phase = Phase.size
    private var size = 0
    private var digitCount = 0
    private var length = 0
    /// The absolute offset of the line's first byte.
    private(set) var offset = 0

    /// A finished line: the chunk size and where the line ended.
    struct Line {
        var size: Int
        /// The window index after the line ending.
        var end: Int
        /// The absolute offset of a line feed that came without CR, if one did.
        var bareLineFeedOffset: Int?
    }

    /// Reads from `window[index...]`, whose first byte is at absolute offset `windowOffset +
    /// index`. Returns the finished line, or nil when the window ends first. `bodySize` is the
    /// de-chunked size so far, checked with this chunk against the body limit.
    mutating func consume(
        _ window: UnsafeRawBufferPointer, from index: Int, windowOffset: Int, limits: HTTPLimits, bodySize: Int
    ) throws(DecodeError) -> Line? {
        var position = index
        while position < window.count {
            let byte = window[position]
            let byteOffset = windowOffset + position
            if length == 0 { offset = byteOffset }
            length += 1
            guard length <= limits.maxChunkLineLength else {
                throw DecodeError(.limitExceeded, layer: .http, offset: byteOffset, expected: "a chunk-size line of at most \(limits.maxChunkLineLength) bytes", limit: .httpChunkLine)
            }
            position += 1
            switch phase {
            case .size:
                if let digit = ASCII.hexValue(byte) {
                    // Checked before multiplying, so neither the limit nor Int can be overrun.
                    guard limits.maxChunkSize >= digit, size <= (limits.maxChunkSize - digit) / 16 else {
                        throw DecodeError(.limitExceeded, layer: .http, offset: offset, expected: "a chunk size of at most \(limits.maxChunkSize) bytes", limit: .httpChunk)
                    }
                    size = size * 16 + digit
                    digitCount += 1
                    continue
                }
                guard digitCount > 0 else {
                    throw DecodeError(.malformed, layer: .http, offset: byteOffset, expected: "a hexadecimal chunk size")
                }
                fallthrough
            case .whitespace:
                if ASCII.isWhitespace(byte) {
                    phase = .whitespace
                } else if byte == ASCII.semicolon {
                    phase = .extensions
                } else if byte == ASCII.carriageReturn {
                    phase = .lineFeed
                } else if byte == ASCII.lineFeed {
                    return try finish(end: position, bareLineFeedOffset: byteOffset, limits: limits, bodySize: bodySize)
                } else {
                    throw DecodeError(.malformed, layer: .http, offset: byteOffset, expected: "a hexadecimal digit, ';' or the end of the chunk-size line")
                }
            case .extensions:
                if byte == ASCII.carriageReturn {
                    phase = .lineFeed
                } else if byte == ASCII.lineFeed {
                    return try finish(end: position, bareLineFeedOffset: byteOffset, limits: limits, bodySize: bodySize)
                } else if (byte < ASCII.space && byte != ASCII.horizontalTab) || byte == ASCII.delete {
                    throw DecodeError(.malformed, layer: .http, offset: byteOffset, expected: "a chunk extension without control characters")
                }
            case .lineFeed:
                guard byte == ASCII.lineFeed else {
                    throw DecodeError(.malformed, layer: .http, offset: byteOffset, expected: "LF after CR (RFC 9112 §2.2)")
                }
                return try finish(end: position, bareLineFeedOffset: nil, limits: limits, bodySize: bodySize)
            }
        }
        return nil
    }

    private func finish(end: Int, bareLineFeedOffset: Int?, limits: HTTPLimits, bodySize: Int) throws(DecodeError) -> Line {
        guard size <= limits.maxBodySize - bodySize else {
            throw DecodeError(.limitExceeded, layer: .http, offset: offset, expected: "a body of at most \(limits.maxBodySize) bytes", limit: .httpBody)
        }
        return Line(size: size, end: end, bareLineFeedOffset: bareLineFeedOffset)
    }
}
