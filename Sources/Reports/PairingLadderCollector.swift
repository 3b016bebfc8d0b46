import HAPEvents
import Packets

/// The messages of each pairing exchange, kept until the exchange ends so that a report can draw
/// its ladder (`hapscope pairing`, the HTML report). Messages wait per connection, so exchanges on
/// concurrent connections do not interleave; an exchange that never ends keeps at most
/// `maximumSteps` messages, the rest only counted.
struct PairingLadderCollector {
    /// One message of the exchange: one arrow of the ladder.
    struct Step {
        let packet: PacketInfo?
        let message: PairingMessageEvent
    }

    /// An exchange that ended, with the messages kept for it.
    struct Ladder {
        let exchange: PairingExchangeEvent
        let steps: [Step]
        /// Messages beyond `maximumSteps`, counted but not kept.
        let droppedSteps: Int
    }

    let maximumSteps: Int
    private var open: [Int: (steps: [Step], dropped: Int)] = [:]

    init(maximumSteps: Int) {
        self.maximumSteps = maximumSteps
    }

    /// Keeps a pairing message, or returns the ladder a `pairingExchange` event ends; nil for
    /// every other event.
    mutating func take(_ event: HAPEvent) -> Ladder? {
        switch event.kind {
        case .pairingMessage(let message):
            // Taken out and put back, so that appending does not copy the steps.
            var ladder = open.removeValue(forKey: message.connection.id) ?? ([], 0)
            if ladder.steps.count < maximumSteps {
                ladder.steps.append(Step(packet: event.packet, message: message))
            } else {
                ladder.dropped += 1
            }
            open[message.connection.id] = ladder
            return nil
        case .pairingExchange(let exchange):
            let ladder = open.removeValue(forKey: exchange.connection.id)
            return Ladder(exchange: exchange, steps: ladder?.steps ?? [], droppedSteps: ladder?.dropped ?? 0)
        default:
            return nil
        }
    }
}
