import WireParsing

/// Reads TLV8 items from borrowed bytes without allocating.
///
/// Each call hands out the next item as a `TLV8Element`, its fragments already found; the
/// value stays in the input until the caller joins or copies it. A TLV8 body has no overall
/// length, so the reader runs to the end of the bytes it was given.
///
/// Adjacent items of one type are fragments of one value (HAP: TLV8 fragmentation). The
/// strict `next()` throws where HomeKitADK's reader rejects the body; `next(recordingInto:)`
/// records the same problems as `TLV8Diagnostic`s and keeps going as far as the bytes allow.
public struct TLV8Reader: ~Escapable {
    // Internal and inlinable throughout: the benchmark suite iterates bodies in another
    // module, and only inlined code is specialized there and free of generic dispatch.
    @usableFromInline let bytes: RawSpan
    @usableFromInline let baseOffset: Int
    @usableFromInline let limits: TLV8Limits
    @usableFromInline var position = 0
    @usableFromInline var itemCount = 0
    /// The types seen since the last separator, to catch a type repeated within one list entry.
    @usableFromInline var typesInEntry = TLV8TypeSet()

    /// A reader over `bytes`, which start at absolute offset `baseOffset` of the caller's input.
    @_lifetime(copy bytes)
    @inlinable
    public init(_ bytes: RawSpan, baseOffset: Int = 0, limits: TLV8Limits = .default) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.limits = limits
    }

    /// The absolute offset of the next unread byte.
    @inlinable public var offset: Int { baseOffset + position }

    @inlinable public var isAtEnd: Bool { position == bytes.byteCount }

    /// The next item, or nil at the end of the input.
    ///
    /// Throws `DecodeError` (layer `tlv8`) at the first problem: `.truncated` when the input
    /// ends inside an item, `.malformed` for a broken fragment sequence or a type repeated
    /// within one list entry, `.limitExceeded` past `TLV8Limits.maximumItemCount`.
    @_lifetime(copy self)
    @inlinable
    public mutating func next() throws(DecodeError) -> TLV8Element? {
        var strict = ThrowingSink()
        return try read(reporting: &strict)
    }

    /// The next item, or nil at the end of the input, appending problems to `diagnostics`.
    ///
    /// Never fails: fragments that follow a short or empty fragment are joined anyway, a
    /// repeated type is kept, and at a truncation the reader returns the complete fragments
    /// of the item it was reading (if any) and then stops.
    @_lifetime(copy self)
    @inlinable
    public mutating func next(recordingInto diagnostics: inout [TLV8Diagnostic]) -> TLV8Element? {
        read(reporting: &diagnostics)
    }

    @_lifetime(copy self)
    @inlinable
    mutating func read<Sink: TLV8DiagnosticSink>(
        reporting sink: inout Sink
    ) throws(Sink.Failure) -> TLV8Element? {
        let end = bytes.byteCount
        let start = position
        guard start < end else { return nil }
        let type = TLV8Type(rawValue: byte(at: start))

        guard itemCount < limits.maximumItemCount else {
            position = end
            try sink.report(TLV8Diagnostic(.tooManyItems(limit: limits.maximumItemCount), offset: baseOffset + start))
            return nil
        }
        if type == .separator {
            typesInEntry = TLV8TypeSet()
        } else if !typesInEntry.insert(type) {
            try sink.report(TLV8Diagnostic(.repeatedType(type), offset: baseOffset + start))
        }

        // One pass per fragment: the first, then each continuation, which is an item of the
        // same type right after it.
        var fragmentStart = start
        var fragmentLength = 0
        var valueLength = 0
        var fragmentCount = 0
        while fragmentStart < end {
            if fragmentCount > 0 {
                guard byte(at: fragmentStart) == type.rawValue else { break }
            }
            guard end - fragmentStart >= 2 else {
                try sink.report(TLV8Diagnostic(.incompleteHeader(type: type), offset: baseOffset + fragmentStart))
                return finish(type: type, start: start, end: fragmentStart, fragmentCount: fragmentCount, valueLength: valueLength)
            }
            let length = Int(byte(at: fragmentStart + 1))
            if fragmentCount > 0 {
                // HAP: TLV8 fragmentation — only a 255-byte fragment may be continued, and
                // continuations carry bytes (HomeKitADK HAPTLVReaderGetNext).
                if fragmentLength != 255 {
                    try sink.report(TLV8Diagnostic(
                        .continuationAfterShortFragment(type: type, previousLength: fragmentLength),
                        offset: baseOffset + fragmentStart))
                }
                if length == 0 {
                    try sink.report(TLV8Diagnostic(.emptyContinuation(type: type), offset: baseOffset + fragmentStart))
                }
            }
            let available = end - fragmentStart - 2
            guard length <= available else {
                try sink.report(TLV8Diagnostic(
                    .truncatedValue(type: type, declaredLength: length, availableLength: available),
                    offset: baseOffset + fragmentStart))
                return finish(type: type, start: start, end: fragmentStart, fragmentCount: fragmentCount, valueLength: valueLength)
            }
            fragmentLength = length
            valueLength += length
            fragmentCount += 1
            fragmentStart += 2 + length
        }
        position = fragmentStart
        itemCount += 1
        return TLV8Element(
            type: type, offset: baseOffset + start, fragmentCount: fragmentCount, valueLength: valueLength,
            encoded: bytes.extracting(start ..< fragmentStart))
    }

    /// Ends reading at a truncation: what follows `end` cannot be read, and the complete
    /// fragments before it, if any, still form an item.
    @_lifetime(copy self)
    @inlinable
    mutating func finish(
        type: TLV8Type, start: Int, end: Int, fragmentCount: Int, valueLength: Int
    ) -> TLV8Element? {
        position = bytes.byteCount
        guard fragmentCount > 0 else { return nil }
        itemCount += 1
        return TLV8Element(
            type: type, offset: baseOffset + start, fragmentCount: fragmentCount, valueLength: valueLength,
            encoded: bytes.extracting(start ..< end))
    }

    @inlinable @inline(__always)
    func byte(at position: Int) -> UInt8 {
        bytes.unsafeLoad(fromByteOffset: position, as: UInt8.self)
    }
}

/// Where the reader sends a problem: the strict path throws it, the lenient path keeps it.
/// One generic reading routine serves both, specialized for each.
@usableFromInline
protocol TLV8DiagnosticSink {
    associatedtype Failure: Error
    mutating func report(_ diagnostic: TLV8Diagnostic) throws(Failure)
}

@usableFromInline
struct ThrowingSink: TLV8DiagnosticSink {
    @inlinable init() {}

    @inlinable
    func report(_ diagnostic: TLV8Diagnostic) throws(DecodeError) {
        throw diagnostic.error
    }
}

extension Array: TLV8DiagnosticSink where Element == TLV8Diagnostic {
    @inlinable
    mutating func report(_ diagnostic: TLV8Diagnostic) {
        append(diagnostic)
    }
}

/// A set of type bytes in two 128-bit words: no allocation, constant-time insert.
@usableFromInline
struct TLV8TypeSet {
    @usableFromInline var low: UInt128 = 0
    @usableFromInline var high: UInt128 = 0

    @inlinable init() {}

    /// Adds `type`; false when it was already present.
    @inlinable @inline(__always)
    mutating func insert(_ type: TLV8Type) -> Bool {
        let bit = UInt128(1) << (type.rawValue & 127)
        if type.rawValue < 128 {
            defer { low |= bit }
            return low & bit == 0
        }
        defer { high |= bit }
        return high & bit == 0
    }
}
