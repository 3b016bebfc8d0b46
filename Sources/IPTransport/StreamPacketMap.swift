import Packets

/// Remembers which packet each stretch of a byte stream arrived in, so that a message parsed from
/// the stream can name the packets holding its first and last byte.
///
/// Marks are appended in stream order. A message asks only for the packet of its first byte
/// and of its last, which is in the newest piece, so the map keeps only the mark covering the
/// first byte of the message in progress and the newest mark: however many pieces a message
/// spans, it holds at most three marks while a piece is parsed.
struct StreamPacketMap {
    private var offsets: [Int] = []
    private var packets: [PacketInfo] = []

    /// Bytes from `offset` on arrived in `packet` (until the next mark).
    mutating func mark(_ offset: Int, _ packet: PacketInfo) {
        if let last = offsets.last, last == offset {
            // The previous piece was empty: it carried nothing.
            packets[packets.count - 1] = packet
            return
        }
        offsets.append(offset)
        packets.append(packet)
    }

    /// The packet that carried the byte at `offset`; nil before the first mark kept.
    func packet(at offset: Int) -> PacketInfo? {
        offsets.lastIndex { $0 <= offset }.map { packets[$0] }
    }

    /// Forgets the marks no message can ask for any more: those that only cover bytes before
    /// `offset` (where the message in progress begins), and those between the mark covering
    /// `offset` and the newest.
    mutating func forget(before offset: Int) {
        guard let covering = offsets.lastIndex(where: { $0 <= offset }) else { return }
        let newest = offsets.count - 1
        if covering + 1 < newest {
            offsets.removeSubrange(covering + 1 ..< newest)
            packets.removeSubrange(covering + 1 ..< newest)
        }
        if covering > 0 {
            offsets.removeFirst(covering)
            packets.removeFirst(covering)
        }
    }
}
