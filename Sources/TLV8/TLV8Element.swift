/// One TLV8 item as a view of the input: fragments are joined only when asked.
///
/// `TLV8Reader` hands these out. They borrow the reader's bytes, so they cost no allocation;
/// copy what must outlive the input into a `TLV8Item`.
public struct TLV8Element: ~Escapable {
    public let type: TLV8Type
    /// The absolute offset of the first fragment's type byte.
    public let offset: Int
    /// How many fragments carried the value: 1 unless it was longer than 255 bytes.
    public let fragmentCount: Int
    /// The length of the joined value.
    public let valueLength: Int
    /// The item as sent: every fragment, headers included.
    public let encoded: RawSpan

    @_lifetime(copy encoded)
    @inlinable
    init(type: TLV8Type, offset: Int, fragmentCount: Int, valueLength: Int, encoded: RawSpan) {
        self.type = type
        self.offset = offset
        self.fragmentCount = fragmentCount
        self.valueLength = valueLength
        self.encoded = encoded
    }

    /// The value without a copy, when it was sent in one fragment; nil when it must be joined.
    @inlinable
    public var contiguousValue: RawSpan? {
        @_lifetime(copy self)
        get {
            guard fragmentCount == 1 else { return nil }
            return encoded.extracting(droppingFirst: 2)
        }
    }

    /// Calls `body` with the joined value: the input's own bytes for a single fragment, a
    /// temporary buffer (on the stack when small) for a fragmented one.
    @inlinable
    public func withValue<Result, Failure: Error>(
        _ body: (RawSpan) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if let value = contiguousValue {
            return try body(value)
        }
        return try withUnsafeTemporaryAllocation(byteCount: valueLength, alignment: 1) {
            (buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Result in
            copyValue(to: buffer)
            return try body(RawSpan(_unsafeBytes: UnsafeRawBufferPointer(buffer)))
        }
    }

    /// The joined value, copied.
    @inlinable
    public var value: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: valueLength) { buffer, initializedCount in
            copyValue(to: UnsafeMutableRawBufferPointer(buffer))
            initializedCount = valueLength
        }
    }

    /// Calls `body` with each fragment's value, in order.
    @inlinable
    public func forEachFragment(_ body: (RawSpan) -> Void) {
        var position = 0
        while position < encoded.byteCount {
            let length = Int(encoded.unsafeLoad(fromByteOffset: position + 1, as: UInt8.self))
            body(encoded.extracting(position + 2 ..< position + 2 + length))
            position += 2 + length
        }
    }

    /// Writes the joined value to the start of `buffer`, which holds at least `valueLength` bytes.
    @inlinable
    func copyValue(to buffer: UnsafeMutableRawBufferPointer) {
        var written = 0
        forEachFragment { fragment in
            fragment.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[written ..< written + source.count])
                    .copyMemory(from: source)
            }
            written += fragment.byteCount
        }
    }
}
