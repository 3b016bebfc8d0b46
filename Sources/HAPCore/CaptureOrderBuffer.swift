import HAPEvents
import Packets

/// Keeps the event stream in capture order while a connection holds packets back.
///
/// A connection not judged yet (its first bytes), one whose key is being tried, or a session
/// joined mid-way whose frame boundary is being searched holds its packets and replays them
/// once it knows what they are; meanwhile the other connections go on. Their events wait here
/// and leave sorted by packet number once no hold reaches back before them, so that `timeline`
/// and every other consumer see packet #4's read before packet #6's. The wait is bounded: past
/// `capacity` events everything waiting leaves, in order as far as it goes.
package struct CaptureOrderBuffer {
    /// What holds packets back: one stage of one connection.
    package struct Hold: Hashable, Sendable {
        package enum Stage: Hashable, Sendable {
            /// Its first bytes, until they say whether it speaks HAP.
            case recognition
            /// Its frames, while the key log's sessions are tried on them.
            case keyTrial
            /// One direction of a session joined mid-way, while its frame boundary is searched.
            case frameSearch(HAPDirection)
        }

        package let connection: Int
        package let stage: Stage

        package init(connection: Int, _ stage: Stage) {
            self.connection = connection
            self.stage = stage
        }
    }

    /// Events waiting at most; a hold that lasts longer (a connection that goes quiet while
    /// holding) lets them go rather than grow without bound.
    package static let capacity = 16_384

    private var holds: [Hold: Int] = [:]
    private var waiting: [(order: Int, sequence: Int, event: HAPEvent)] = []
    private var sequence = 0
    /// The latest packet number seen, the place of events that carry no packet.
    private var latestPacket = 0

    package init() {}

    /// Whether events go straight out.
    package var isPassingThrough: Bool { holds.isEmpty && waiting.isEmpty }

    /// Takes an event; returns those that may leave now, in capture order.
    package mutating func take(_ event: HAPEvent) -> [HAPEvent] {
        if let number = event.packet?.number { latestPacket = max(latestPacket, number) }
        guard !isPassingThrough else { return [event] }
        waiting.append((event.packet?.number ?? latestPacket, sequence, event))
        sequence += 1
        guard waiting.count >= Self.capacity else { return [] }
        return leave(before: Int.max)
    }

    /// `hold` keeps packets from `packet` on; the first hold of a holder counts.
    package mutating func hold(_ hold: Hold, from packet: PacketInfo) {
        if holds[hold] == nil { holds[hold] = packet.number }
    }

    /// `hold` replayed what it held (or gave up); returns the events that may leave now.
    package mutating func release(_ hold: Hold) -> [HAPEvent] {
        guard holds.removeValue(forKey: hold) != nil else { return [] }
        return leave(before: holds.values.min() ?? Int.max)
    }

    /// Every event waiting, at the end of the run.
    package mutating func drain() -> [HAPEvent] {
        holds = [:]
        return leave(before: Int.max)
    }

    private mutating func leave(before bound: Int) -> [HAPEvent] {
        waiting.sort { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
        let count = waiting.prefix { $0.order < bound }.count
        let leaving = waiting.prefix(count).map(\.event)
        waiting.removeFirst(count)
        return leaving
    }
}
