/// A read position over borrowed bytes.
///
/// Parsers take `inout ByteCursor`, read what their structure needs and leave the cursor
/// after it. The cursor never copies: `read(count:)` hands out a `RawSpan` of the same
/// storage. Every read checks the requested length against the bytes that remain before
/// touching memory, so a length taken from the wire can never reach past the input; a short
/// input throws `DecodeError.Code.truncated` carrying the absolute offset.
public struct ByteCursor: ~Escapable {
    /// The bytes being parsed.
    public let bytes: RawSpan
    /// The layer named in errors thrown by this cursor.
    public let layer: DecodeError.Layer
    /// The absolute offset of `bytes[0]` in the caller's input, so that a cursor over a
    /// nested structure still reports offsets the user can find.
    public let baseOffset: Int
    /// The position of the next byte, relative to `bytes`.
    public private(set) var position: Int

    @_lifetime(copy bytes)
    public init(_ bytes: RawSpan, layer: DecodeError.Layer, baseOffset: Int = 0, position: Int = 0) {
        precondition(position >= 0 && position <= bytes.byteCount, "cursor position outside its bytes")
        self.bytes = bytes
        self.layer = layer
        self.baseOffset = baseOffset
        self.position = position
    }

    /// The absolute offset of the next byte.
    public var offset: Int { baseOffset + position }
    public var remainingCount: Int { bytes.byteCount - position }
    public var isAtEnd: Bool { position == bytes.byteCount }

    // MARK: Errors at the current position

    /// An error saying the input ended where `expected` was due.
    public func truncated(_ expected: String) -> DecodeError {
        DecodeError(.truncated, layer: layer, offset: offset, expected: expected)
    }

    /// An error saying the value at `position` (default: here) broke a rule.
    public func malformed(_ expected: String, at position: Int? = nil) -> DecodeError {
        DecodeError(.malformed, layer: layer, offset: baseOffset + (position ?? self.position), expected: expected)
    }

    /// An error saying the configured bound `limit` was reached.
    public func limitExceeded(_ expected: String, limit: LimitName? = nil) -> DecodeError {
        DecodeError(.limitExceeded, layer: layer, offset: offset, expected: expected, limit: limit)
    }

    // MARK: Reading

    @inline(__always)
    private func require(_ count: Int, _ what: @autoclosure () -> String) throws(DecodeError) {
        guard count >= 0, count <= remainingCount else {
            throw truncated("\(what()) (\(count) bytes, \(remainingCount) remain)")
        }
    }

    /// The next byte, without consuming it; nil at the end.
    public func peekUInt8() -> UInt8? {
        isAtEnd ? nil : bytes.unsafeLoad(fromByteOffset: position, as: UInt8.self)
    }

    /// The byte `distance` bytes ahead of the current position, without consuming anything.
    public func peekUInt8(at distance: Int) -> UInt8? {
        guard distance >= 0, distance < remainingCount else { return nil }
        return bytes.unsafeLoad(fromByteOffset: position + distance, as: UInt8.self)
    }

    public mutating func readUInt8(_ what: @autoclosure () -> String = "a byte") throws(DecodeError) -> UInt8 {
        try require(1, what())
        defer { position += 1 }
        return bytes.unsafeLoad(fromByteOffset: position, as: UInt8.self)
    }

    public mutating func readUInt16BigEndian(_ what: @autoclosure () -> String = "a 16-bit integer") throws(DecodeError) -> UInt16 {
        try require(2, what())
        defer { position += 2 }
        return UInt16(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt16.self))
    }

    public mutating func readUInt16LittleEndian(_ what: @autoclosure () -> String = "a 16-bit integer") throws(DecodeError) -> UInt16 {
        try require(2, what())
        defer { position += 2 }
        return UInt16(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt16.self))
    }

    public mutating func readUInt32BigEndian(_ what: @autoclosure () -> String = "a 32-bit integer") throws(DecodeError) -> UInt32 {
        try require(4, what())
        defer { position += 4 }
        return UInt32(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    public mutating func readUInt32LittleEndian(_ what: @autoclosure () -> String = "a 32-bit integer") throws(DecodeError) -> UInt32 {
        try require(4, what())
        defer { position += 4 }
        return UInt32(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    public mutating func readUInt64LittleEndian(_ what: @autoclosure () -> String = "a 64-bit integer") throws(DecodeError) -> UInt64 {
        try require(8, what())
        defer { position += 8 }
        return UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    /// The next `count` bytes as a span of the same storage.
    @_lifetime(copy self)
    public mutating func read(count: Int, _ what: @autoclosure () -> String = "more bytes") throws(DecodeError) -> RawSpan {
        try require(count, what())
        defer { position += count }
        return bytes.extracting(position ..< position + count)
    }

    /// The next `count` bytes, copied: for values that must outlive the input.
    public mutating func readBytes(count: Int, _ what: @autoclosure () -> String = "more bytes") throws(DecodeError) -> [UInt8] {
        try require(count, what())
        defer { position += count }
        return bytes.extracting(position ..< position + count).withUnsafeBytes { Array($0) }
    }

    /// A cursor over the next `count` bytes, consuming them here; offsets stay absolute.
    @_lifetime(copy self)
    public mutating func readCursor(count: Int, _ what: @autoclosure () -> String = "more bytes") throws(DecodeError) -> ByteCursor {
        let start = offset
        let span = try read(count: count, what())
        return ByteCursor(span, layer: layer, baseOffset: start)
    }

    /// Everything that remains.
    @_lifetime(copy self)
    public mutating func readRemaining() -> RawSpan {
        defer { position = bytes.byteCount }
        return bytes.extracting(position ..< bytes.byteCount)
    }

    public mutating func skip(count: Int, _ what: @autoclosure () -> String = "more bytes") throws(DecodeError) {
        try require(count, what())
        position += count
    }

    /// Moves to `newPosition` (relative to `bytes`), for formats that point backwards, such as
    /// DNS name compression. Throws when the target lies outside the bytes.
    public mutating func move(to newPosition: Int, _ what: @autoclosure () -> String = "a position inside the input") throws(DecodeError) {
        guard newPosition >= 0, newPosition <= bytes.byteCount else {
            throw malformed("\(what()) (position \(newPosition) of \(bytes.byteCount))")
        }
        position = newPosition
    }
}

extension Array where Element == UInt8 {
    /// Copies the bytes of a span.
    public init(_ span: RawSpan) {
        self = span.withUnsafeBytes { Array($0) }
    }
}
