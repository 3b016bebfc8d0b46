import HAPEvents
import Packets

/// Collects an event stream, for tests that feed one piece of the analysis built values and read
/// what it emitted.
public final class EventRecorder: HAPEventConsumer {
    public private(set) var events: [HAPEvent] = []

    public init() {}

    public func consume(_ event: HAPEvent) {
        events.append(event)
    }

    /// Forgets what was recorded, so a test can read only what the next step emits.
    public func removeAll() {
        events.removeAll()
    }

    /// The payloads of one kind of event, in order.
    public func payloads<T>(_ extract: (HAPEvent.Kind) -> T?) -> [T] {
        events.compactMap { extract($0.kind) }
    }

    public var problems: [CaptureProblem] { payloads { if case .problem(let value) = $0 { value } else { nil } } }
    public var pairingMessages: [PairingMessageEvent] { payloads { if case .pairingMessage(let value) = $0 { value } else { nil } } }
    public var pairingExchanges: [PairingExchangeEvent] { payloads { if case .pairingExchange(let value) = $0 { value } else { nil } } }
    public var sessionStarts: [SessionStartEvent] { payloads { if case .sessionStarted(let value) = $0 { value } else { nil } } }
    public var sessionProblems: [SessionProblemEvent] { payloads { if case .sessionProblem(let value) = $0 { value } else { nil } } }
    public var httpMessages: [HTTPMessageEvent] { payloads { if case .httpMessage(let value) = $0 { value } else { nil } } }
    public var databases: [AccessoryDatabaseEvent] { payloads { if case .accessoryDatabase(let value) = $0 { value } else { nil } } }
    public var characteristics: [CharacteristicActivity] { payloads { if case .characteristic(let value) = $0 { value } else { nil } } }
    public var advertisements: [AdvertisementEvent] { payloads { if case .advertisement(let value) = $0 { value } else { nil } } }
    public var queries: [DiscoveryQueryEvent] { payloads { if case .mdnsQuery(let value) = $0 { value } else { nil } } }
    public var connectionsOpened: [ConnectionOpenedEvent] { payloads { if case .connectionOpened(let value) = $0 { value } else { nil } } }
    public var connectionsClosed: [ConnectionSummary] { payloads { if case .connectionClosed(let value) = $0 { value } else { nil } } }
    public var decryptedData: [DecryptedDataEvent] { payloads { if case .decryptedData(let value) = $0 { value } else { nil } } }
    public var inputsOpened: [InputOpenedEvent] { payloads { if case .inputOpened(let value) = $0 { value } else { nil } } }
    public var inputSummaries: [InputSummary] { payloads { if case .inputEnded(let value) = $0 { value } else { nil } } }

    /// The problems of `kind`, with the packet each was reported with.
    public func problems(_ kind: CaptureProblem.Kind) -> [(problem: CaptureProblem, packet: PacketInfo?)] {
        events.compactMap { event in
            guard case .problem(let problem) = event.kind, problem.kind == kind else { return nil }
            return (problem, event.packet)
        }
    }
}

extension PacketInfo {
    /// Packet `number` of a built input, captured `number` milliseconds after 1 700 000 000 s
    /// (unless `time` says when), 100 bytes long.
    public static func numbered(_ number: Int, at time: Timestamp? = nil) -> PacketInfo {
        PacketInfo(
            number: number,
            timestamp: time ?? Timestamp(seconds: 1_700_000_000 + Int64(number / 1000), nanoseconds: UInt32(number % 1000) * 1_000_000),
            capturedLength: 100, originalLength: 100)
    }
}

extension ConnectionInfo {
    /// A HAP-over-IP connection between a controller at 10.77.0.1:49201 and an accessory at
    /// 10.77.0.2:51826, TCP connection `id`.
    public static func example(_ id: Int = 1) -> ConnectionInfo {
        ConnectionInfo(
            tcpConnection: id, controller: Endpoint(address: .v4(0x0A4D_0001), port: 49201),
            accessory: Endpoint(address: .v4(0x0A4D_0002), port: 51826))
    }
}

extension Collection {
    /// The one element, when there is exactly one: for expectations about "the" event of a kind.
    public var only: Element? { count == 1 ? first : nil }
}
