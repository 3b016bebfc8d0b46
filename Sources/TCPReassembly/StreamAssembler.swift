import Packets

/// Bounds on one direction's out-of-order buffer (see `TCPReassemblyLimits`).
struct StreamBufferLimits {
    var maximumBytes: Int
    var maximumRanges: Int
}

/// The buffering bound a direction reached.
enum StreamBufferLimit {
    case bytesPerDirection
    case bytesInTotal
    case rangesPerDirection
}

/// Where a `StreamAssembler` sends what it produces, and the budget shared by all connections
/// that it draws on. The reassembler implements it once per connection and direction.
protocol StreamAssemblerOutput {
    var bufferLimits: StreamBufferLimits { get }
    func deliver(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo)
    func skipGap(of byteCount: UInt64, packet: PacketInfo)
    /// Whether `byteCount` more out-of-order bytes fit the budget shared by all connections.
    func canBuffer(_ byteCount: Int) -> Bool
    func didBuffer(_ byteCount: Int)
    func didRelease(_ byteCount: Int)
    func didReach(_ limit: StreamBufferLimit)
}

/// One direction of a TCP connection: turns the sender's segments, taken in capture order,
/// into its byte stream, delivered in order and exactly once, with every stretch that was
/// never captured reported as a gap in its place.
///
/// Positions are stream offsets: 0 is the first byte after the SYN or, for a direction first
/// seen mid-stream, the first sequence number learnt. Sequence numbers become offsets relative
/// to `nextOffset` by serial arithmetic (RFC 1982 §3.2), so wrap-around is handled in one
/// place, `offset(of:origin:)`. One segment moves offsets by less than 2^32, so a direction
/// would need billions of segments to approach the range of `Int64`.
///
/// Overlaps: the bytes received first for a stream offset win, as in Zeek; a later segment
/// with different bytes there is counted in `conflictingOverlaps`.
struct StreamAssembler {
    /// Serial arithmetic cannot place a sequence number 2^31 or more ahead, so no segment is
    /// taken to be longer; a larger count of bytes cut off by the snap length is not believed.
    static let maximumMissingCount = Int(Int32.max)

    /// The sequence number of stream offset 0, once known.
    private(set) var origin: UInt32?
    /// Every stream byte before this offset has been delivered or skipped as a gap.
    private(set) var nextOffset: Int64 = 0
    /// The stream offset of the sender's FIN, once accepted.
    private(set) var finOffset: Int64?
    /// Out-of-order ranges in stream order, not overlapping, all after `nextOffset`: the
    /// ranges that continue the stream are delivered as soon as they do.
    private var pending: [PendingRange] = []
    private(set) var bufferedByteCount = 0
    private(set) var statistics = TCPDirectionStatistics()

    /// Whether the stream has been delivered up to the sender's FIN.
    var hasFinished: Bool { finOffset == nextOffset }

    var bufferedRangeCount: Int { pending.count }

    /// Whether a SYN with this sequence number opened the stream followed here (or may have:
    /// the stream's start is not known yet), rather than a new stream on the same ports.
    func isContinued(bySYN sequenceNumber: UInt32) -> Bool {
        guard let origin else { return true }
        return origin == sequenceNumber &+ 1
    }

    /// Counts a segment from the sender, whatever becomes of it.
    mutating func count(_ segment: TCPSegment) {
        statistics.packets += 1
        statistics.payloadBytes += segment.payload.count + Self.missingCount(of: segment)
    }

    /// Counts the payload of a segment sent after the connection closed, which is not used.
    mutating func ignoreAfterClose(_ segment: TCPSegment) {
        statistics.bytesBeyondStreamEnd += segment.payload.count + Self.missingCount(of: segment)
    }

    /// Takes the sender's next segment in capture order: delivers what continues the stream,
    /// buffers what arrived ahead of a hole, and drops what was received before.
    mutating func receive(_ segment: TCPSegment, output: some StreamAssemblerOutput) {
        // The common case first, as TCP stacks do it (Van Jacobson's "header prediction"): a
        // segment that continues the stream exactly, with nothing buffered and no SYN or FIN.
        if let origin, segment.sequenceNumber == origin &+ UInt32(truncatingIfNeeded: nextOffset),
           pending.isEmpty, finOffset == nil, segment.missingPayloadCount == 0,
           !segment.flags.contains(.syn), !segment.flags.contains(.fin) {
            if !segment.payload.isEmpty {
                deliver(segment.payload, packet: segment.packet, output)
            }
            return
        }
        var sequenceNumber = segment.sequenceNumber
        if segment.flags.contains(.syn) {
            sequenceNumber &+= 1  // RFC 9293 §3.4: the SYN occupies one sequence number.
        }
        let origin = self.origin ?? sequenceNumber
        self.origin = origin
        var payload = SegmentPayload(
            start: offset(of: sequenceNumber, origin: origin), captured: segment.payload,
            missingCount: Int64(Self.missingCount(of: segment)), packet: segment.packet)
        if segment.flags.contains(.fin) {
            acceptFIN(at: payload.end)  // RFC 9293 §3.4: the FIN follows the segment's data.
        }
        guard !payload.isEmpty else { return }

        var overlap = Overlap()
        if payload.start < nextOffset {
            overlap.repeatsBytes = true
            payload.removeFirst(upTo: nextOffset)
        }
        if let finOffset, payload.end > finOffset {
            statistics.bytesBeyondStreamEnd += Int(payload.end - max(payload.start, finOffset))
            payload.removeAll(from: finOffset)
        }
        if !payload.isEmpty {
            overlap.formUnion(comparedWithBuffered(payload))
            if payload.start == nextOffset {
                deliverInOrder(payload, output)
            } else {
                buffer(payload, output)
            }
        }
        if overlap.repeatsBytes { statistics.retransmissions += 1 }
        if overlap.conflicts { statistics.conflictingOverlaps += 1 }
    }

    /// Takes an acknowledgment number from the peer. Every byte before it reached the peer, so
    /// a hole before it will not fill from the capture (Zeek's "ack above hole"): it becomes a
    /// gap, and the buffered bytes after it are delivered.
    mutating func acknowledge(_ acknowledgmentNumber: UInt32, packet: PacketInfo, output: some StreamAssemblerOutput) {
        guard let origin else {
            // The peer tells where this stream stands before its sender has been seen.
            origin = acknowledgmentNumber
            return
        }
        var acknowledged = offset(of: acknowledgmentNumber, origin: origin)
        if let finOffset {
            acknowledged = min(acknowledged, finOffset)  // The ACK of a FIN counts the FIN too.
        }
        guard acknowledged > nextOffset else { return }
        drain(through: acknowledged, gapPacket: packet, output)
    }

    /// Ends the stream: delivers everything buffered, reporting the holes between as gaps,
    /// and reports the bytes still missing before an accepted FIN as a gap.
    mutating func close(gapPacket: PacketInfo, output: some StreamAssemblerOutput) {
        var end = pending.last?.end ?? nextOffset
        if let finOffset { end = max(end, finOffset) }
        if end > nextOffset {
            drain(through: end, gapPacket: gapPacket, output)
        }
        pending = []
    }

    // MARK: Placing segments

    private static func missingCount(of segment: TCPSegment) -> Int {
        min(max(segment.missingPayloadCount, 0), maximumMissingCount)
    }

    /// The stream offset of `sequenceNumber`, taken as the nearer of the two it could be.
    private func offset(of sequenceNumber: UInt32, origin: UInt32) -> Int64 {
        let expected = origin &+ UInt32(truncatingIfNeeded: nextOffset)
        return nextOffset + Int64(Int32(bitPattern: sequenceNumber &- expected))
    }

    /// Records the FIN. The first one wins; one placed before bytes already delivered or
    /// buffered contradicts them, which were received first, and is ignored.
    private mutating func acceptFIN(at offset: Int64) {
        guard finOffset == nil, offset >= nextOffset, offset >= pending.last?.end ?? offset else { return }
        finOffset = offset
    }

    /// How a segment overlaps bytes received before it.
    private struct Overlap {
        var repeatsBytes = false
        var conflicts = false

        mutating func formUnion(_ other: Overlap) {
            repeatsBytes = repeatsBytes || other.repeatsBytes
            conflicts = conflicts || other.conflicts
        }
    }

    private func comparedWithBuffered(_ payload: SegmentPayload) -> Overlap {
        var overlap = Overlap()
        guard !pending.isEmpty else { return overlap }
        _ = forEachStretch(of: payload) { stretch in
            guard case .buffered(let range) = stretch else { return }
            overlap.repeatsBytes = true
            if Self.bytesDiffer(payload, range) { overlap.conflicts = true }
        }
        return overlap
    }

    /// Whether the captured bytes `payload` and `range` both hold for some offsets differ.
    private static func bytesDiffer(_ payload: SegmentPayload, _ range: PendingRange) -> Bool {
        guard case .captured(let bytes) = range.content else { return false }
        let lower = max(payload.start, range.start)
        let upper = min(payload.capturedEnd, range.end)
        guard lower < upper else { return false }
        let new = payload.captured[Int(lower - payload.start)..<Int(upper - payload.start)]
        return bytes.withUnsafeBytes { old in
            !new.elementsEqual(old[Int(lower - range.start)..<Int(upper - range.start)])
        }
    }

    // MARK: Delivering

    /// Delivers a payload that starts at `nextOffset`, then what was buffered behind it.
    /// Buffered ranges inside the payload were received first, so they are delivered in place
    /// of the payload's bytes there, each chunk with the packet it came from.
    private mutating func deliverInOrder(_ payload: SegmentPayload, _ output: some StreamAssemblerOutput) {
        var rest = payload
        var mergedCount = 0
        while mergedCount < pending.count, pending[mergedCount].start < rest.end {
            let range = pending[mergedCount]
            emit(rest.prefix(upTo: range.start), output)
            emit(range, output)
            rest.removeFirst(upTo: range.end)
            mergedCount += 1
        }
        emit(rest, output)
        if !pending.isEmpty {
            removeBuffered(first: mergedCount, output)
            drain(through: nil, gapPacket: payload.packet, output)
        }
    }

    /// Delivers the buffered ranges that continue the stream. With a `target`, first skips
    /// every hole before it as a gap, attributed to `gapPacket`.
    private mutating func drain(through target: Int64?, gapPacket: PacketInfo, _ output: some StreamAssemblerOutput) {
        var drainedCount = 0
        while drainedCount < pending.count {
            let range = pending[drainedCount]
            if range.start > nextOffset {
                guard let target, target > nextOffset else { break }
                skipGap(to: min(range.start, target), packet: gapPacket, byLimit: false, output)
                guard range.start == nextOffset else { break }
            }
            emit(range, output)
            drainedCount += 1
        }
        removeBuffered(first: drainedCount, output)
        if let target, target > nextOffset {
            skipGap(to: target, packet: gapPacket, byLimit: false, output)
        }
    }

    private mutating func emit(_ payload: SegmentPayload, _ output: some StreamAssemblerOutput) {
        if !payload.captured.isEmpty {
            deliver(payload.captured, packet: payload.packet, output)
        }
        if payload.missingCount > 0 {
            skipGap(to: payload.end, packet: payload.packet, byLimit: false, output)
        }
    }

    private mutating func emit(_ range: PendingRange, _ output: some StreamAssemblerOutput) {
        switch range.content {
        case .captured(let bytes):
            bytes.withUnsafeBytes { deliver($0, packet: range.packet, output) }
        case .missing:
            skipGap(to: range.end, packet: range.packet, byLimit: false, output)
        }
    }

    private mutating func deliver(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo, _ output: some StreamAssemblerOutput) {
        nextOffset += Int64(bytes.count)
        statistics.deliveredBytes += bytes.count
        output.deliver(bytes, packet: packet)
    }

    private mutating func skipGap(to target: Int64, packet: PacketInfo, byLimit: Bool, _ output: some StreamAssemblerOutput) {
        let byteCount = target - nextOffset
        guard byteCount > 0 else { return }
        nextOffset = target
        statistics.gaps += 1
        statistics.gapBytes += UInt64(byteCount)
        if byLimit { statistics.bytesDroppedByLimit += Int(byteCount) }
        output.skipGap(of: UInt64(byteCount), packet: packet)
    }

    // MARK: Buffering

    /// Buffers a payload that arrived ahead of a hole, keeping only bytes not buffered yet.
    /// When a limit forbids it, stops waiting for the first hole: reports it as a gap,
    /// delivers what follows it, and tries again with what is left of the payload.
    private mutating func buffer(_ payload: SegmentPayload, _ output: some StreamAssemblerOutput) {
        var payload = payload
        while true {
            let needed = storageNeeded(for: payload)
            guard needed.rangeCount > 0 else { return }
            guard let limit = limitReached(by: needed, output) else {
                store(payload, output)
                statistics.outOfOrderSegments += 1
                return
            }
            output.didReach(limit)
            let holeEnd = min(payload.start, pending.first?.start ?? payload.start)
            skipGap(to: holeEnd, packet: payload.packet, byLimit: true, output)
            drain(through: nil, gapPacket: payload.packet, output)
            payload.removeFirst(upTo: nextOffset)
            if payload.isEmpty { return }
            if payload.start == nextOffset {
                deliverInOrder(payload, output)
                return
            }
        }
    }

    private struct StorageNeed {
        var byteCount = 0
        var rangeCount = 0
    }

    private func storageNeeded(for payload: SegmentPayload) -> StorageNeed {
        var needed = StorageNeed()
        _ = forEachStretch(of: payload) { stretch in
            guard case .uncovered(let stretch) = stretch else { return }
            let parts = Self.parts(of: payload, in: stretch)
            if !parts.captured.isEmpty {
                needed.byteCount += Int(parts.captured.count)
                needed.rangeCount += 1
            }
            if !parts.missing.isEmpty { needed.rangeCount += 1 }
        }
        return needed
    }

    private func limitReached(by needed: StorageNeed, _ output: some StreamAssemblerOutput) -> StreamBufferLimit? {
        let limits = output.bufferLimits
        if pending.count + needed.rangeCount > limits.maximumRanges { return .rangesPerDirection }
        if bufferedByteCount + needed.byteCount > limits.maximumBytes { return .bytesPerDirection }
        if !output.canBuffer(needed.byteCount) { return .bytesInTotal }
        return nil
    }

    /// Stores the stretches of `payload` no buffered range covers, copying their bytes.
    private mutating func store(_ payload: SegmentPayload, _ output: some StreamAssemblerOutput) {
        var storedByteCount = 0
        let index = firstBufferedIndex(endingAfter: payload.start)
        if index == pending.count || pending[index].start >= payload.end {
            // Nothing buffered overlaps, the common case: no temporary array.
            var insertionIndex = index
            Self.forEachPiece(of: payload, in: payload.start..<payload.end) { piece in
                pending.insert(piece, at: insertionIndex)
                insertionIndex += 1
                storedByteCount += piece.storedByteCount
            }
        } else {
            var replacement: [PendingRange] = []
            let overlapped = forEachStretch(of: payload) { stretch in
                switch stretch {
                case .buffered(let range):
                    replacement.append(range)
                case .uncovered(let stretch):
                    Self.forEachPiece(of: payload, in: stretch) { piece in
                        replacement.append(piece)
                        storedByteCount += piece.storedByteCount
                    }
                }
            }
            pending.replaceSubrange(overlapped, with: replacement)
        }
        bufferedByteCount += storedByteCount
        output.didBuffer(storedByteCount)
    }

    /// Calls `body` with what to buffer for a stretch of `payload`: its captured part,
    /// copied, then the part the snap length cut off, as a marker; either may be absent.
    private static func forEachPiece(of payload: SegmentPayload, in stretch: Range<Int64>, _ body: (PendingRange) -> Void) {
        let parts = parts(of: payload, in: stretch)
        if !parts.captured.isEmpty {
            let bytes = payload.captured[Int(parts.captured.lowerBound - payload.start)..<Int(parts.captured.upperBound - payload.start)]
            body(PendingRange(
                start: parts.captured.lowerBound, end: parts.captured.upperBound,
                content: .captured([UInt8](bytes)), packet: payload.packet))
        }
        if !parts.missing.isEmpty {
            body(PendingRange(start: parts.missing.lowerBound, end: parts.missing.upperBound, content: .missing, packet: payload.packet))
        }
    }

    private mutating func removeBuffered(first count: Int, _ output: some StreamAssemblerOutput) {
        guard count > 0 else { return }
        let releasedByteCount = pending[..<count].reduce(0) { $0 + $1.storedByteCount }
        pending.removeFirst(count)
        bufferedByteCount -= releasedByteCount
        output.didRelease(releasedByteCount)
    }

    private enum Stretch {
        case uncovered(Range<Int64>)
        case buffered(PendingRange)
    }

    /// Walks `payload` in stream order, as the stretches no buffered range covers and the
    /// buffered ranges it overlaps; returns the indices of those ranges.
    private func forEachStretch(of payload: SegmentPayload, _ body: (Stretch) -> Void) -> Range<Int> {
        let first = firstBufferedIndex(endingAfter: payload.start)
        var index = first
        var cursor = payload.start
        while index < pending.count, pending[index].start < payload.end {
            let range = pending[index]
            if cursor < range.start { body(.uncovered(cursor..<range.start)) }
            body(.buffered(range))
            cursor = max(cursor, range.end)
            index += 1
        }
        if cursor < payload.end { body(.uncovered(cursor..<payload.end)) }
        return first..<index
    }

    /// Binary search: buffered ranges are in order and disjoint, so their ends are in order too.
    private func firstBufferedIndex(endingAfter offset: Int64) -> Int {
        var low = 0
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if pending[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Splits a stretch of `payload` into the part that was captured and the part the snap
    /// length cut off.
    private static func parts(of payload: SegmentPayload, in stretch: Range<Int64>) -> (captured: Range<Int64>, missing: Range<Int64>) {
        let split = min(max(payload.capturedEnd, stretch.lowerBound), stretch.upperBound)
        return (stretch.lowerBound..<split, split..<stretch.upperBound)
    }
}
