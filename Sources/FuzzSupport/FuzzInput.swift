/// Reads a fuzz input as a script of decisions: how to cut a stream, which limits to set, what
/// a generated segment or frame looks like.
///
/// Every read succeeds. Past the end of the input a read yields zero bits, so a short input is
/// simply a script that stops early, and every input libFuzzer makes is a valid script.
public struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// Reads `bytes`, which must stay valid while the input is used.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    public var remainingCount: Int { bytes.count - position }
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte; 0 once the input is used up.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// Two bytes, little-endian.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    /// The next `count` bytes, or as many as remain. Borrowed from the input.
    public mutating func bytes(upTo count: Int) -> UnsafeRawBufferPointer {
        let taken = min(max(count, 0), remainingCount)
        defer { position += taken }
        return UnsafeRawBufferPointer(rebasing: bytes[position ..< position + taken])
    }

    /// Everything not yet read. Borrowed from the input.
    public mutating func rest() -> UnsafeRawBufferPointer {
        bytes(upTo: remainingCount)
    }
}
