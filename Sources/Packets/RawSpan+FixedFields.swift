extension RawSpan {
    /// The big-endian integer at `offset`.
    ///
    /// For the fields of a fixed-size header read as one span: its length was checked once,
    /// when the cursor handed the span out, so each field is a plain load.
    @inline(__always)
    func bigEndian<Integer: FixedWidthInteger & BitwiseCopyable>(_: Integer.Type = Integer.self, at offset: Int) -> Integer {
        Integer(bigEndian: unsafeLoadUnaligned(fromByteOffset: offset, as: Integer.self))
    }
}
