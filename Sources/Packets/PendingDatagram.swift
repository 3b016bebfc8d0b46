/// A datagram waiting for its fragments, tracked with the hole list of RFC 815.
///
/// Overlap policy: a fragment may repeat bytes already held only if it repeats them exactly;
/// it then only fills the holes it covers. A fragment whose bytes disagree with bytes already
/// held, that ends the datagram somewhere other than where another fragment ended it, or that
/// reaches past the end, makes the whole datagram untrustworthy: the caller discards it, as
/// RFC 5722 requires for IPv6 and Linux does for IPv4 as well (since 4.19). Keeping either copy
/// would let a sender show the analyzer different bytes from the ones the receiver used.
struct PendingDatagram {
    /// Why a fragment cannot join its datagram.
    enum Conflict: Error {
        case differentBytes(at: Int)
        case differentEnd(known: Int, claimed: Int)
        case bytesBeyondEnd(end: Int)
    }

    enum Placement {
        /// The fragment brought no byte that was missing.
        case duplicate
        case filledHoles
        /// Every byte up to the end is held.
        case complete(length: Int)
    }

    let buffer: ReassemblyBuffer
    /// Byte ranges not received yet, sorted and disjoint. Until the last fragment arrives the
    /// final hole runs to `Int.max`.
    private(set) var holes: [Range<Int>] = [0 ..< Int.max]
    /// The datagram's payload length, once the fragment that ends it has arrived.
    private(set) var length: Int?
    private(set) var fragmentCount = 0
    /// The highest byte offset held, plus one.
    private(set) var heldEnd = 0
    /// The type of the first header of the reassembled payload: the IPv4 protocol, or the
    /// next header of the IPv6 fragment at offset 0.
    var firstHeader: IPProtocol?
    let deadline: Timestamp
    /// Tells this datagram apart from an earlier one with the same key in the arrival queue.
    let serial: Int

    init(buffer: ReassemblyBuffer, deadline: Timestamp, serial: Int) {
        self.buffer = buffer
        self.deadline = deadline
        self.serial = serial
    }

    /// Places `fragment` at `offset`; `isLast` when the fragment's More Fragments flag is clear.
    /// The buffer must already hold `offset + fragment.count` bytes of capacity.
    mutating func place(_ fragment: UnsafeRawBufferPointer, at offset: Int, isLast: Bool) throws(Conflict) -> Placement {
        let end = offset + fragment.count
        fragmentCount += 1
        if let length, end > length || (isLast && end != length) {
            throw isLast ? .differentEnd(known: length, claimed: end) : .bytesBeyondEnd(end: length)
        }
        let learnedEnd = isLast && length == nil
        if learnedEnd {
            guard heldEnd <= end else { throw .bytesBeyondEnd(end: end) }
            length = end
            // The open-ended final hole now ends where the datagram does.
            if let last = holes.last, last.upperBound == Int.max {
                holes.removeLast()
                if last.lowerBound < end { holes.append(last.lowerBound ..< end) }
            }
        }

        guard !fragment.isEmpty else { return completion(orElse: learnedEnd ? .filledHoles : .duplicate) }

        // Walk the holes the fragment touches: bytes between them are held and must match,
        // bytes inside them are new and are copied.
        var first = 0
        while first < holes.count && holes[first].upperBound <= offset { first += 1 }
        var position = offset
        var index = first
        while index < holes.count && holes[index].lowerBound < end {
            let hole = holes[index]
            if position < hole.lowerBound { try checkHeld(fragment, from: position, to: hole.lowerBound, fragmentOffset: offset) }
            let fillStart = max(position, hole.lowerBound)
            let fillEnd = min(end, hole.upperBound)
            buffer.write(UnsafeRawBufferPointer(rebasing: fragment[(fillStart - offset) ..< (fillEnd - offset)]), at: fillStart)
            position = fillEnd
            index += 1
        }
        if position < end { try checkHeld(fragment, from: position, to: end, fragmentOffset: offset) }
        heldEnd = max(heldEnd, end)
        guard index > first else { return completion(orElse: learnedEnd ? .filledHoles : .duplicate) }

        // The touched holes give way to what is left of the first and the last of them.
        let leftRemainder = holes[first].lowerBound < offset ? holes[first].lowerBound ..< offset : nil
        let rightRemainder = holes[index - 1].upperBound > end ? end ..< holes[index - 1].upperBound : nil
        var kept = first
        if let leftRemainder { holes[kept] = leftRemainder; kept += 1 }
        if let rightRemainder {
            if kept < index { holes[kept] = rightRemainder } else { holes.insert(rightRemainder, at: kept) }
            kept += 1
        }
        if kept < index { holes.removeSubrange(kept ..< index) }
        return completion(orElse: .filledHoles)
    }

    private func completion(orElse placement: Placement) -> Placement {
        if let length, holes.isEmpty { .complete(length: length) } else { placement }
    }

    private func checkHeld(_ fragment: UnsafeRawBufferPointer, from start: Int, to end: Int, fragmentOffset: Int) throws(Conflict) {
        let held = buffer.bytes(start ..< end)
        let offered = UnsafeRawBufferPointer(rebasing: fragment[(start - fragmentOffset) ..< (end - fragmentOffset)])
        for index in 0 ..< held.count where held[index] != offered[index] {
            throw .differentBytes(at: start + index)
        }
    }
}
