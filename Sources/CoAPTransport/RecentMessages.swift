import CoAP

/// The messages one endpoint sent lately, to recognise retransmissions (RFC 7252 §4.5: a
/// recipient detects a duplicate by its message ID and source endpoint, for EXCHANGE_LIFETIME).
///
/// Held by count, not by time, so that a flood of made-up message IDs cannot grow it: the last
/// `capacity` messages of each type are remembered, which covers the few exchanges a HAP session
/// has in flight (aiohomekit sends one request at a time) many times over.
struct RecentMessages {
    static let capacity = 64

    enum Verdict: Equatable {
        case new
        /// The same bytes again: a retransmission, or a stored answer re-sent.
        case retransmission
        /// The same type and message ID with other bytes: a copy that differs from the original.
        case differingCopy
    }

    private struct Entry {
        let type: CoAPMessageType
        let messageID: UInt16
        /// The message's bytes hashed: 64 bits per message instead of up to a datagram.
        let fingerprint: Int
    }

    private var entries: [Entry] = []
    private var next = 0

    /// The bytes the window holds, for the transport's memory budget.
    var heldByteCount: Int { entries.count * MemoryLayout<Entry>.stride }

    /// Judges the message and remembers it if it is new.
    mutating func check(type: CoAPMessageType, messageID: UInt16, bytes: [UInt8]) -> Verdict {
        var hasher = Hasher()
        hasher.combine(bytes)
        let fingerprint = hasher.finalize()
        if let earlier = entries.first(where: { $0.type == type && $0.messageID == messageID }) {
            return earlier.fingerprint == fingerprint ? .retransmission : .differingCopy
        }
        let entry = Entry(type: type, messageID: messageID, fingerprint: fingerprint)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % Self.capacity
        }
        return .new
    }
}
