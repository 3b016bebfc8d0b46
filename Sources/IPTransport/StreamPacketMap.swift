import Packets

/// Remembers which packet each stretch of a byte stream arrived in, so that a message parsed from
/// the stream can name the packets holding its first and last byte.
///
/// Marks are appended in stream order. A message asks only for the packet of its first byte
/// and of its last, which is in the newest piece, so the map keeps only the mark covering the
/// first byte of the message in progress and the newest mark: however many pieces a message
/// spans, it holds at most three marks while a piece is parsed.
///
/// The map also keeps where the message in progress begins (`deliver`, `settle`), so that a
/// channel reaches it once per piece and once per message: every access to a class's stored
/// property is checked at run time.
struct StreamPacketMap {
    private struct Mark {
        let offset: Int
        var packet: PacketInfo
    }

    /// In stream order.
    private var marks: [Mark] = []
    /// Every byte before this offset was delivered in a message or reported discarded: the
    /// message in progress begins here.
    private var settledOffset = 0

    /// Bytes from `offset` on arrived in `packet` (until the next mark). The marks no message
    /// can ask for any more since the last piece are forgotten first.
    mutating func mark(_ offset: Int, _ packet: PacketInfo) {
        forget(before: settledOffset)
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

    /// The packets that carried the first and the last byte of `message`'s stream range, which
    /// is being delivered: the bytes before its end are settled.
    mutating func deliver(_ message: Range<Int>) -> (first: PacketInfo?, last: PacketInfo?) {
        settledOffset = message.upperBound
        return (packet(at: message.lowerBound), packet(at: max(message.upperBound - 1, message.lowerBound)))
    }

    /// The bytes before `offset` were reported discarded.
    mutating func settle(before offset: Int) {
        settledOffset = offset
    }

    /// Forgets the marks no message can ask for any more: those that only cover bytes before
    /// `offset` (where the message in progress begins), and those between the mark covering
    /// `offset` and the newest.
    private mutating func forget(before offset: Int) {
        guard let covering = marks.lastIndex(where: { $0.offset <= offset }) else { return }
        let newest = marks.count - 1
        // The two kept are moved to the front and the rest dropped from the end: removing from
        // the front or the middle went through the array's generic range replacement.
        marks[0] = marks[covering]
        if covering < newest { marks[1] = marks[newest] }
        marks.removeLast(marks.count - (covering < newest ? 2 : 1))
    }
}
