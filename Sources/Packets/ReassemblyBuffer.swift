/// The bytes of one datagram being reassembled from fragments, in memory the decoder owns so
/// that a completed datagram can be handed out by pointer until the next packet.
final class ReassemblyBuffer {
    /// No reassembled IP payload is longer: both IPv4 total length and IPv6 payload length
    /// are 16-bit fields.
    static let maximumCapacity = 65_536
    private static let minimumCapacity = 2_048

    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The capacity this buffer needs to hold bytes up to `end`: a power of two, so that a
    /// datagram arriving in many fragments is copied a few times at most.
    static func capacity(toHold end: Int) -> Int {
        var capacity = minimumCapacity
        while capacity < end && capacity < maximumCapacity { capacity *= 2 }
        return capacity
    }

    /// Grows to `newCapacity`, keeping the first `heldCount` bytes.
    func grow(to newCapacity: Int, keeping heldCount: Int) {
        guard newCapacity > capacity else { return }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: heldCount)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
    }
}
