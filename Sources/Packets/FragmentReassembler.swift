import WireParsing

/// Identifies the datagram a fragment belongs to: source, destination, protocol and
/// identification for IPv4 (RFC 791 §3.2); source, destination and identification for IPv6
/// (RFC 8200 §4.5). IPv4 and IPv6 keys never collide: their addresses differ in kind.
struct FragmentKey: Hashable {
    let source: IPAddress
    let destination: IPAddress
    let identification: UInt32
    /// The IPv4 protocol; zero for IPv6, whose key leaves the protocol out.
    let ipv4Protocol: UInt8
}

/// Reassembles IP datagrams from fragments, within `FragmentReassemblyLimits`.
///
/// Datagrams are kept in arrival order so that the oldest is found in constant time, both to
/// expire it and to make room; entries of datagrams that completed or were dropped are left
/// in the queue and skipped when they reach its front.
struct FragmentReassembler {
    enum Outcome {
        case buffered
        /// The whole payload, `length` bytes from the start of `buffer`, beginning with a
        /// header of type `firstHeader`.
        case completed(ReassemblyBuffer, length: Int, firstHeader: IPProtocol)
    }

    /// Why a fragment was refused; its datagram has been dropped.
    enum Rejection: Error {
        case conflict(PendingDatagram.Conflict)
        case tooManyFragments(limit: Int)
        case tooManyBytes(limit: Int)
    }

    let limits: FragmentReassemblyLimits
    private var pending: [FragmentKey: PendingDatagram] = [:]
    private var arrivals: [(key: FragmentKey, serial: Int)] = []
    private var arrivalsStart = 0
    private var nextSerial = 0
    /// Buffer capacity held by pending datagrams.
    private(set) var pendingBytes = 0

    init(limits: FragmentReassemblyLimits) {
        self.limits = limits
    }

    var pendingCount: Int { pending.count }

    /// Adds one fragment's payload. `firstHeader` is the type of the header that starts the
    /// fragment's payload when `offset` is 0 (for IPv4, always the protocol).
    mutating func add(
        _ fragment: UnsafeRawBufferPointer, at offset: Int, isLast: Bool, key: FragmentKey, firstHeader: IPProtocol?,
        time: Timestamp, statistics: inout PacketDecoderStatistics
    ) throws(Rejection) -> Outcome {
        expire(at: time, statistics: &statistics)

        // Only the capacity is looked at here: a copy of the datagram kept alive would make the
        // in-place update below copy its hole list.
        let heldCapacity = pending[key]?.buffer.capacity
        if heldCapacity == nil {
            while pending.count >= limits.maximumPendingDatagrams, dropOldest(at: .ipFragmentDatagrams, statistics: &statistics) {}
        }
        let neededCapacity = max(heldCapacity ?? 0, ReassemblyBuffer.capacity(toHold: offset + fragment.count))
        let growth = neededCapacity - (heldCapacity ?? 0)
        while pendingBytes + growth > limits.maximumPendingBytes, dropOldest(at: .ipFragmentBytes, statistics: &statistics) {}
        if heldCapacity != nil, pending[key] == nil {
            // Making room dropped this very datagram: it was the oldest.
            throw .tooManyBytes(limit: limits.maximumPendingBytes)
        }
        guard pendingBytes + growth <= limits.maximumPendingBytes else {
            // A datagram that alone needs more than the whole budget.
            statistics.datagramsDroppedByLimit[.ipFragmentBytes, default: 0] += 1
            throw .tooManyBytes(limit: limits.maximumPendingBytes)
        }

        var datagram: PendingDatagram
        if let held = pending.removeValue(forKey: key) {
            datagram = held
            guard datagram.fragmentCount < limits.maximumFragmentsPerDatagram else {
                pendingBytes -= datagram.buffer.capacity
                statistics.datagramsDroppedByLimit[.ipFragmentsPerDatagram, default: 0] += 1
                throw .tooManyFragments(limit: limits.maximumFragmentsPerDatagram)
            }
            datagram.buffer.grow(to: neededCapacity, keeping: datagram.heldEnd)
        } else {
            datagram = PendingDatagram(
                buffer: ReassemblyBuffer(capacity: neededCapacity), deadline: time.adding(limits.timeout), serial: nextSerial)
            arrivals.append((key, nextSerial))
            nextSerial += 1
        }
        pendingBytes += growth
        statistics.fragments += 1

        if offset == 0, let firstHeader { datagram.firstHeader = firstHeader }
        let placement: PendingDatagram.Placement
        do {
            placement = try datagram.place(fragment, at: offset, isLast: isLast)
        } catch {
            pendingBytes -= datagram.buffer.capacity
            statistics.datagramsDiscardedForConflictingOverlap += 1
            throw .conflict(error)
        }
        switch placement {
        case .duplicate:
            statistics.duplicateFragments += 1
        case .filledHoles:
            break
        case .complete(let length):
            pendingBytes -= datagram.buffer.capacity
            statistics.reassembledDatagrams += 1
            compactArrivals()
            // A payload with bytes holds a fragment at offset 0, which named the first header.
            return .completed(datagram.buffer, length: length, firstHeader: datagram.firstHeader ?? .noNextHeader)
        }
        pending[key] = datagram
        return .buffered
    }

    /// Drops every waiting datagram, counting them as expired: the input has ended.
    mutating func finish(statistics: inout PacketDecoderStatistics) {
        statistics.datagramsExpired += pending.count
        pending.removeAll()
        arrivals.removeAll()
        arrivalsStart = 0
        pendingBytes = 0
    }

    /// Drops datagrams whose deadline has passed at `time`.
    private mutating func expire(at time: Timestamp, statistics: inout PacketDecoderStatistics) {
        while arrivalsStart < arrivals.count {
            let (key, serial) = arrivals[arrivalsStart]
            if let datagram = pending[key], datagram.serial == serial {
                guard datagram.deadline <= time else { break }
                drop(key, statistics: &statistics)
                statistics.datagramsExpired += 1
            }
            arrivalsStart += 1
        }
        compactArrivals()
    }

    /// Drops the oldest waiting datagram, if there is one, counting it as dropped at `limit`.
    private mutating func dropOldest(at limit: LimitName, statistics: inout PacketDecoderStatistics) -> Bool {
        while arrivalsStart < arrivals.count {
            let (key, serial) = arrivals[arrivalsStart]
            arrivalsStart += 1
            if let datagram = pending[key], datagram.serial == serial {
                drop(key, statistics: &statistics)
                statistics.datagramsDroppedByLimit[limit, default: 0] += 1
                return true
            }
        }
        return false
    }

    private mutating func drop(_ key: FragmentKey, statistics: inout PacketDecoderStatistics) {
        if let datagram = pending.removeValue(forKey: key) { pendingBytes -= datagram.buffer.capacity }
    }

    /// Keeps the arrival queue proportional to the datagrams still waiting: entries of finished
    /// datagrams pile up behind a long-waiting one otherwise.
    private mutating func compactArrivals() {
        let queued = arrivals.count - arrivalsStart
        if queued == 0 {
            arrivals.removeAll(keepingCapacity: true)
            arrivalsStart = 0
        } else if queued > 2 * pending.count + 64 {
            arrivals = arrivals[arrivalsStart...].filter { pending[$0.key]?.serial == $0.serial }
            arrivalsStart = 0
        } else if arrivalsStart > 64 && arrivalsStart * 2 > arrivals.count {
            arrivals.removeFirst(arrivalsStart)
            arrivalsStart = 0
        }
    }
}

extension Timestamp {
    /// This time plus `duration`, saturating at the largest representable time.
    func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        var totalNanoseconds = Int64(nanoseconds) + attoseconds / 1_000_000_000
        var carry: Int64 = 0
        if totalNanoseconds >= 1_000_000_000 { totalNanoseconds -= 1_000_000_000; carry = 1 }
        if totalNanoseconds < 0 { totalNanoseconds += 1_000_000_000; carry = -1 }
        let (sum, overflow) = self.seconds.addingReportingOverflow(seconds)
        let (total, carryOverflow) = sum.addingReportingOverflow(carry)
        guard !overflow, !carryOverflow else {
            return Timestamp(seconds: seconds < 0 ? .min : .max, nanoseconds: 0)
        }
        return Timestamp(seconds: total, nanoseconds: UInt32(totalNanoseconds))
    }
}
