import Packets

/// Out-of-order stream bytes waiting for the hole before them to fill: a copy of captured
/// bytes, or a stretch the snap length cut off, to be reported as a gap in its turn.
struct PendingRange {
    enum Content {
        case captured([UInt8])
        case missing
    }

    let start: Int64
    let end: Int64
    let content: Content
    /// The segment the bytes came from, reported with them when they are delivered.
    let packet: PacketInfo

    /// Bytes of memory the range holds.
    var storedByteCount: Int {
        if case .captured(let bytes) = content { bytes.count } else { 0 }
    }
}
