import HAPCatalog
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import WireParsing

/// What one connection's EVENTs are judged against: when each characteristic was last notified
/// (for bursts beyond HAP's coalescing) and which characteristics the accessory unsubscribed.
///
/// Bounded: at most `maximumTrackedCharacteristics` characteristics are followed per connection
/// (an accessory database holds far fewer); EVENTs for others go unjudged.
struct NotificationMonitor {
    static let maximumTrackedCharacteristics = 4096

    /// HomeKitADK and HAP-python deliver these at once, uncoalesced (HAP-python
    /// pyhap/characteristic.py `IMMEDIATE_NOTIFY`): Programmable Switch Event and Button Event.
    /// Compared one by one: a set of two hashed the type with SipHash for every EVENT.
    static func isImmediate(_ type: HAPUUID) -> Bool {
        type == HAPUUID(appleDefined: 0x73) || type == HAPUUID(appleDefined: 0x126)
    }

    private struct Notified {
        /// The two EVENTs before the latest, oldest first, at most `eventsInABurst - 1`.
        var recent: [Timestamp] = []
        /// Whether the latest EVENT was part of a burst already reported.
        var inBurst = false

        /// Records an EVENT at `time`; the burst's length when it is the third inside the
        /// coalescing delay and the burst begins with it.
        mutating func note(_ time: Timestamp) -> Double? {
            let window = NotificationProblem.eventsInABurst - 1
            var burst: Double?
            if recent.count == window, let first = recent.first, time - first < NotificationProblem.coalescingSeconds {
                if !inBurst { burst = time - first }
                inBurst = true
            } else {
                inBurst = false
            }
            recent.append(time)
            if recent.count > window { recent.removeFirst() }
            return burst
        }
    }

    private var notified: [CharacteristicID: Notified] = [:]
    /// Characteristics whose `"ev": false` the accessory answered with success, and where.
    private var unsubscribed: [CharacteristicID: PacketInfo] = [:]

    /// The accessory answered a `PUT /characteristics` that (un)subscribes: 204 means every entry
    /// took effect. A 207 names failures per entry, so an unsubscription it carries is not taken
    /// as certain; a subscription always clears an earlier unsubscription.
    mutating func writeAnswered(_ writes: CharacteristicWriteRequest, status: HTTPStatus, packet: PacketInfo) {
        for entry in writes.entries {
            guard let enabled = entry.eventsEnabled else { continue }
            if enabled || status != .noContent {
                unsubscribed.removeValue(forKey: entry.id)
            } else if unsubscribed.count < Self.maximumTrackedCharacteristics {
                unsubscribed[entry.id] = packet
            }
        }
    }

    /// Judges an EVENT carrying `ids`, which began in `packet`, with `pending` the request waiting
    /// for its response on the connection; `type` names a characteristic's type where known.
    mutating func judge(
        eventFor ids: some Sequence<CharacteristicID>, at packet: PacketInfo, pending: PendingRequest?, type: (CharacteristicID) -> HAPUUID?
    ) -> [NotificationProblem] {
        var problems: [NotificationProblem] = []
        if let pending {
            let waited = packet.timestamp - pending.packet.timestamp
            if waited > NotificationProblem.requestReadAllowanceSeconds {
                problems.append(.insideResponse(
                    request: .init(method: pending.method, target: pending.target, packet: pending.packet), secondsAfterRequest: waited))
            }
        }
        for id in ids {
            if let unsubscribedAt = unsubscribed[id] {
                problems.append(.afterUnsubscribe(id, unsubscribedAt: unsubscribedAt))
            }
            if let type = type(id), Self.isImmediate(type) { continue }
            if let burst = noteEvent(id, at: packet.timestamp) { problems.append(burst) }
        }
        return problems
    }

    /// Records an EVENT of `id`; a burst when it is the third inside the coalescing delay, reported
    /// when the burst begins.
    private mutating func noteEvent(_ id: CharacteristicID, at time: Timestamp) -> NotificationProblem? {
        // Found once and changed in place: a copy taken out and stored back would copy its array
        // each time, and a second lookup hashed the id again.
        if let index = notified.index(forKey: id) {
            return notified.values[index].note(time).map { .burst(id, seconds: $0) }
        }
        guard notified.count < Self.maximumTrackedCharacteristics else { return nil }
        var first = Notified()
        let burst = first.note(time)
        notified[id] = first
        return burst.map { .burst(id, seconds: $0) }
    }
}
