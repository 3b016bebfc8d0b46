import HAPJSON
import HTTP1
import Packets

/// A request waiting for its response (HAP answers requests in order). A reference, because
/// each message hands it on several times (its response, the notification checks, the events)
/// and a copy of its strings and decoded body would cost retains at every step.
final class PendingRequest {
    let method: String
    let target: String
    let endpoint: HAPRequestTarget.Endpoint?
    let packet: PacketInfo
    var writes: CharacteristicWriteRequest?
    var readQuery: HAPCharacteristicQuery?
    var timedWrite = false

    init(method: String, target: String, endpoint: HAPRequestTarget.Endpoint?, packet: PacketInfo) {
        self.method = method
        self.target = target
        self.endpoint = endpoint
        self.packet = packet
    }
}

/// The requests of one connection still waiting for their responses, and the timed write
/// prepared on it: HAP answers in order, so each response answers the oldest request.
///
/// Bounded: beyond `maximumPending` requests the oldest is forgotten (its response then cannot
/// be matched), so a controller that never gets answers cannot grow memory.
struct RequestLedger {
    let maximumPending: Int
    private var queue = RequestQueue()
    private var preparedWrite: (pid: UInt64, expires: Timestamp)?

    init(maximumPending: Int) {
        self.maximumPending = maximumPending
    }

    var count: Int { queue.count }

    /// Records a request; returns false when the oldest waiting one had to be forgotten for it.
    mutating func add(_ request: PendingRequest) -> Bool {
        if let writes = request.writes, let pid = writes.pid, let prepared = preparedWrite, prepared.pid == pid,
           request.packet.timestamp <= prepared.expires {
            request.timedWrite = true
        }
        let forgot = queue.count >= maximumPending
        if forgot { _ = queue.popFirst() }
        queue.append(request)
        return !forgot
    }

    /// HAP: a timed write must follow its `/prepare` within `ttl` milliseconds.
    mutating func prepare(_ request: PrepareRequest, at packet: PacketInfo) {
        let nanoseconds = packet.timestamp.nanoseconds + UInt32(request.timeToLive % 1000) * 1_000_000
        let seconds = Int64(request.timeToLive / 1000) + Int64(nanoseconds / 1_000_000_000)
        // A ttl of 2^64 - 1 ms is 2^54 s, which capture times are far below: only a hostile
        // capture time could overflow, and then the window is open for ever.
        let (end, overflow) = packet.timestamp.seconds.addingReportingOverflow(seconds)
        preparedWrite = (request.pid, Timestamp(seconds: overflow ? .max : end, nanoseconds: nanoseconds % 1_000_000_000))
    }

    /// The request a response answers: the oldest waiting.
    mutating func answer() -> PendingRequest? {
        queue.popFirst()
    }

    /// The request the accessory is due to answer next.
    var oldest: PendingRequest? { queue.first }
}

/// A first-in first-out queue that does not shift its elements on every removal.
struct RequestQueue {
    private var items: [PendingRequest] = []
    private var head = 0

    var count: Int { items.count - head }

    var first: PendingRequest? { head < items.count ? items[head] : nil }

    mutating func append(_ request: PendingRequest) { items.append(request) }

    mutating func popFirst() -> PendingRequest? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        }
        return items[head]
    }
}
