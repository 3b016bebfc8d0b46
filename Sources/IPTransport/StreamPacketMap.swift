import Packets

/// Remembers which packet each stretch of a byte stream arrived in, so that a message parsed from
/// the stream can name the packets holding its first and last byte.
///
/// Marks are appended in stream order. A message asks only for the packet of its first byte
/// and of its last, which is in the newest piece, so the map keeps only the mark covering the
/// first byte of the message in progress and the newest mark: however many pieces a message
/// spans, it holds at most three marks while a piece is parsed.
struct StreamPacketMap {
    private struct Mark {
        let offset: Int
        var packet: PacketInfo
    }

    /// In stream order.
    private var marks: [Mark] = []

    /// Bytes from `offset` on arrived in `packet` (until the next mark).
    mutating func mark(_ offset: Int, _ packet: PacketInfo) {
        if let last = marks.last, last.offset == offset {
            // The previous piece was empty: it carried nothing.
            marks[marks.count - 1].packet = packet
            return
        }
        marks.append(Mark(offset: offset, packet: packet))
    }

    /// The packet that carried the byte at `offset`; nil before the first mark kept.
    func packet(at offset: Int) -> PacketInfo? {
        marks.last { $0.offset <= offset }?.packet
    }

    /// Forgets the marks no message can ask for any more: those that only cover bytes before
    /// `offset` (where the message in progress begins), and those between the mark covering
    /// `offset` and the newest.
    mutating func forget(before offset: Int) {
        guard let covering = marks.lastIndex(where: { $0.offset <= offset }) else { return }
        let newest = marks.count - 1
        // The two kept are moved to the front and the rest dropped from the end: removing from
        // the front or the middle went through the array's generic range replacement.
        marks[0] = marks[covering]
        if covering < newest { marks[1] = marks[newest] }
        marks.removeLast(marks.count - (covering < newest ? 2 : 1))
    }
}
