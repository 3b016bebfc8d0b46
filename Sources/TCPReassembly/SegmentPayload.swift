import Packets

/// The stream bytes one segment carries, placed at their stream offsets: first the captured
/// bytes, borrowed from the packet buffer, then the bytes the snap length cut off, which are
/// known to exist but not what they were.
struct SegmentPayload {
    private(set) var start: Int64
    private(set) var captured: UnsafeRawBufferPointer
    private(set) var missingCount: Int64
    let packet: PacketInfo

    init(start: Int64, captured: UnsafeRawBufferPointer, missingCount: Int64, packet: PacketInfo) {
        self.start = start
        self.captured = captured
        self.missingCount = missingCount
        self.packet = packet
    }

    var capturedEnd: Int64 { start + Int64(captured.count) }
    var end: Int64 { capturedEnd + missingCount }
    var isEmpty: Bool { captured.isEmpty && missingCount == 0 }

    /// Drops the bytes before `offset`.
    mutating func removeFirst(upTo offset: Int64) {
        let count = min(offset, end) - start
        guard count > 0 else { return }
        let capturedCount = min(count, Int64(captured.count))
        captured = UnsafeRawBufferPointer(rebasing: captured[Int(capturedCount)...])
        missingCount -= count - capturedCount
        start += count
    }

    /// Drops the bytes from `offset` on.
    mutating func removeAll(from offset: Int64) {
        let kept = max(min(offset, end), start) - start
        if kept < Int64(captured.count) {
            captured = UnsafeRawBufferPointer(rebasing: captured[..<Int(kept)])
            missingCount = 0
        } else {
            missingCount = kept - Int64(captured.count)
        }
    }

    /// The bytes before `offset`.
    func prefix(upTo offset: Int64) -> SegmentPayload {
        var prefix = self
        prefix.removeAll(from: offset)
        return prefix
    }
}
