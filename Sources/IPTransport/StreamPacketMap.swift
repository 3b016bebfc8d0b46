import Packets

/// Remembers which packet each stretch of a byte stream arrived in, so that a message parsed from
/// the stream can name the packets holding its first and last byte.
///
/// Marks are appended in stream order and dropped once no message can refer to them, so the map
/// holds only the marks of the message in progress.
struct StreamPacketMap {
    private var offsets: [Int] = []
    private var packets: [PacketInfo] = []
    private var start = 0

    /// Bytes from `offset` on arrived in `packet` (until the next mark).
    mutating func mark(_ offset: Int, _ packet: PacketInfo) {
        if let last = offsets.last, last == offset, offsets.count > start {
            packets[packets.count - 1] = packet
            return
        }
        offsets.append(offset)
        packets.append(packet)
    }

    /// The packet that carried the byte at `offset`; nil before the first mark.
    func packet(at offset: Int) -> PacketInfo? {
        var low = start, high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low > start ? packets[low - 1] : nil
    }

    /// Forgets marks that only cover bytes before `offset`.
    mutating func forget(before offset: Int) {
        while start + 1 < offsets.count, offsets[start + 1] <= offset { start += 1 }
        if start > 64, start * 2 > offsets.count {
            offsets.removeFirst(start)
            packets.removeFirst(start)
            start = 0
        }
    }
}
