import HAPEvents
import HAPJSON
import HAPPDU
import Packets

/// What "No Response" and event reports show, gathered from the event stream: each timed response
/// (`HTTPMessageEvent.responseTiming`, or `CharacteristicActivity.responseTiming` for a CoAP
/// request body of PDUs, shown as the `POST /` it was) filed under the characteristics it read or wrote and under
/// its controller, the requests left unanswered (`ConnectionSummary.unansweredRequests`), the HAP
/// statuses the accessory answered, and each characteristic's EVENTs with their problems
/// (`HTTPMessageEvent.notificationProblems`). It judges nothing itself.
///
/// Bounded: at most `limits.groups` characteristics and controllers are followed, each keeping
/// `limits.samplesPerGroup` response times for its distribution (the count goes on), and at most
/// `limits.listed` entries of each list; what was left out is counted.
public struct Responsiveness: Sendable {
    public struct Limits: Sendable {
        public var groups = 4096
        public var samplesPerGroup = 100_000
        public var listed = 1000

        public init() {}
    }

    /// The response times of one characteristic or controller.
    public struct Distribution: Sendable {
        public private(set) var count = 0
        public private(set) var slow = 0
        /// Kept response times, unsorted; at most `samplesPerGroup`.
        private var samples: [Double] = []
        public private(set) var maximum = 0.0

        mutating func add(_ timing: ResponseTiming, keeping limit: Int) {
            count += 1
            if timing.verdict != .prompt { slow += 1 }
            maximum = max(maximum, timing.seconds)
            if samples.count < limit { samples.append(timing.seconds) }
        }

        /// The nearest-rank percentile `fraction` (0.5 the median) of the kept times.
        public func percentile(_ fraction: Double) -> Double? {
            guard !samples.isEmpty else { return nil }
            let sorted = samples.sorted()
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }

        public var median: Double? { percentile(0.5) }
        public var percentile95: Double? { percentile(0.95) }
    }

    /// A characteristic of one accessory, as the reports name it.
    public struct CharacteristicKey: Hashable, Comparable, Sendable {
        /// The accessory's device ID, else its address.
        public let accessory: String
        public let id: CharacteristicID

        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.accessory, lhs.id) < (rhs.accessory, rhs.id) }
    }

    public struct CharacteristicTimes: Sendable {
        public let key: CharacteristicKey
        public var name: String?
        public var reads = Distribution()
        public var writes = Distribution()
    }

    /// One timed response, for the lists and the plot.
    public struct TimedResponse: Sendable {
        public let connection: ConnectionInfo
        public let request: HTTPMessageEvent.RequestReference
        /// The packet with the response's first byte.
        public let packet: PacketInfo
        public let status: String
        public let timing: ResponseTiming
    }

    public struct Unanswered: Sendable {
        public let connection: ConnectionInfo
        public let outstanding: ConnectionSummary.UnansweredRequest
        public let reason: ConnectionCloseReason
        /// The packet that ended the connection.
        public let closedAt: PacketInfo?
    }

    public struct StatusCount: Sendable {
        public let status: HAPStatus
        public var count = 0
        /// Where it was first answered, and for which characteristic.
        public let first: PacketInfo?
        public let characteristic: CharacteristicID
        public let name: String?
        /// The HAP PDU status it was first read from (HAP-BLE, HAP over CoAP).
        public let pduStatus: HAPPDUStatus?
    }

    public struct EventTimes: Sendable {
        public let key: CharacteristicKey
        public var name: String?
        public var count = 0
        public var first: Timestamp?
        public var last: Timestamp?
        /// The shortest time between two EVENTs of it on one connection.
        public var shortestGap: Double?
        public var bursts = 0
        /// When each EVENT came, the first `limits.listed`, for plotting them over time.
        public var times: [Timestamp] = []
    }

    public struct NotificationFinding: Sendable {
        public let connection: ConnectionInfo
        public let packet: PacketInfo
        public let problem: NotificationProblem
    }

    public let limits: Limits
    public private(set) var responses: [TimedResponse] = []
    public private(set) var unlistedResponses = 0
    public private(set) var characteristics: [CharacteristicKey: CharacteristicTimes] = [:]
    /// Response times per controller, by its address (every connection of one controller).
    public private(set) var controllers: [String: Distribution] = [:]
    public private(set) var all = Distribution()
    public private(set) var unanswered: [Unanswered] = []
    public private(set) var statuses: [HAPStatus: StatusCount] = [:]
    public private(set) var events: [CharacteristicKey: EventTimes] = [:]
    public private(set) var notificationFindings: [NotificationFinding] = []
    /// Groups (characteristics, controllers) not followed once `limits.groups` was reached.
    public private(set) var droppedGroups = 0

    /// The response whose characteristics are still being reported, per connection.
    private var lastResponse: [Int: (packet: Int, timing: ResponseTiming)] = [:]
    /// When each characteristic was last notified on each connection.
    private var lastEvent: [EventKey: Timestamp] = [:]

    /// Bursts an EVENT carried, until its characteristic activity names the accessory.
    private var burstsAwaitingActivity: Set<BurstKey> = []

    private struct BurstKey: Hashable {
        let connection: Int
        let packet: Int
        let id: CharacteristicID
    }

    private struct EventKey: Hashable {
        let connection: Int
        let characteristic: CharacteristicKey
    }

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public mutating func take(_ event: HAPEvent) {
        switch event.kind {
        case .httpMessage(let http):
            message(http)
        case .characteristic(let activity):
            characteristic(activity, packet: event.packet)
        case .connectionClosed(let summary):
            lastResponse.removeValue(forKey: summary.connection.id)
            lastEvent = lastEvent.filter { $0.key.connection != summary.connection.id }
            for outstanding in summary.unansweredRequests where unanswered.count < limits.listed {
                unanswered.append(Unanswered(connection: summary.connection, outstanding: outstanding, reason: summary.reason, closedAt: event.packet))
            }
        default:
            break
        }
    }

    private mutating func message(_ http: HTTPMessageEvent) {
        for problem in http.notificationProblems {
            if case .burst(let id, _) = problem, burstsAwaitingActivity.count < limits.listed {
                burstsAwaitingActivity.insert(BurstKey(connection: http.connection.id, packet: http.lastPacket.number, id: id))
            }
            if notificationFindings.count < limits.listed {
                notificationFindings.append(NotificationFinding(connection: http.connection, packet: http.lastPacket, problem: problem))
            }
        }
        guard let timing = http.responseTiming, let request = http.request else { return }
        let status = http.message.statusLine.map { "\($0.status)" } ?? ""
        timedResponse(TimedResponse(connection: http.connection, request: request, packet: http.firstPacket, status: status, timing: timing),
                      lastPacket: http.lastPacket)
    }

    /// One response, counted once however many characteristics it answers.
    private mutating func timedResponse(_ response: TimedResponse, lastPacket: PacketInfo) {
        lastResponse[response.connection.id] = (lastPacket.number, response.timing)
        all.add(response.timing, keeping: limits.samplesPerGroup)
        let connection = response.connection
        let controller = connection.controller.endpoint.map { $0.address.description } ?? connection.controller.description
        if controllers[controller] != nil || controllers.count < limits.groups {
            controllers[controller, default: Distribution()].add(response.timing, keeping: limits.samplesPerGroup)
        } else {
            droppedGroups += 1
        }
        if responses.count < limits.listed {
            responses.append(response)
        } else {
            unlistedResponses += 1
        }
    }

    /// HAP over Bluetooth LE and CoAP: each read and write is its own HAP-PDU request, answered
    /// by a response PDU with the same TID, so the activity carries its own timing: from the
    /// packet completing the request to the packet completing the response (a response in
    /// several ATT reads counts until its last). Subscriptions over BLE are ATT writes of the
    /// client characteristic configuration, with no HAP response to time.
    private mutating func pduResponse(_ activity: CharacteristicActivity, packet: PacketInfo?) -> ResponseTiming? {
        guard activity.kind == .read || activity.kind == .write, activity.answered, let packet, let request = activity.requestPacket else {
            return nil
        }
        let timing = ResponseTiming(request: request, response: packet)
        // HomeKitADK HAPPDU.h: the opcodes' names in the HAP specification.
        let opcode = activity.kind == .read ? "HAP-Characteristic-Read" : "HAP-Characteristic-Write"
        let status = activity.status.map { "\($0)" } ?? ""
        timedResponse(TimedResponse(
            connection: activity.connection, request: HTTPMessageEvent.RequestReference(method: opcode, target: activity.id.description, packet: request),
            packet: packet, status: status, timing: timing), lastPacket: packet)
        return timing
    }

    private mutating func characteristic(_ activity: CharacteristicActivity, packet: PacketInfo?) {
        let key = CharacteristicKey(accessory: activity.deviceID ?? activity.connection.accessory.description, id: activity.id)
        if let status = activity.status, !status.isSuccess, activity.answered {
            if statuses[status] == nil {
                statuses[status] = StatusCount(
                    status: status, first: packet, characteristic: activity.id, name: activity.name, pduStatus: activity.pduStatus)
            }
            statuses[status]?.count += 1
        }
        switch activity.kind {
        case .event:
            noteEvent(activity, key: key, packet: packet)
        case .read, .write, .subscribe, .unsubscribe:
            guard let packet else { return }
            let timing: ResponseTiming
            if let carried = activity.responseTiming {
                if lastResponse[activity.connection.id]?.packet != packet.number {
                    // The first activity of a response body: HAP over CoAP's request is a POST to `/`.
                    let request = HTTPMessageEvent.RequestReference(method: "POST", target: "/", packet: activity.requestPacket ?? packet)
                    timedResponse(TimedResponse(connection: activity.connection, request: request, packet: packet, status: "", timing: carried),
                                  lastPacket: packet)
                }
                timing = carried
            } else if case .ip = activity.connection.transport {
                guard let response = lastResponse[activity.connection.id], response.packet == packet.number else { return }
                timing = response.timing
            } else {
                guard let pduTiming = pduResponse(activity, packet: packet) else { return }
                timing = pduTiming
            }
            guard characteristics[key] != nil || characteristics.count < limits.groups else {
                droppedGroups += 1
                return
            }
            characteristics[key, default: CharacteristicTimes(key: key)].name = activity.name
            if activity.kind == .read {
                characteristics[key]?.reads.add(timing, keeping: limits.samplesPerGroup)
            } else {
                characteristics[key]?.writes.add(timing, keeping: limits.samplesPerGroup)
            }
        }
    }

    private mutating func noteEvent(_ activity: CharacteristicActivity, key: CharacteristicKey, packet: PacketInfo?) {
        guard events[key] != nil || events.count < limits.groups else {
            droppedGroups += 1
            return
        }
        var times = events[key] ?? EventTimes(key: key)
        times.name = activity.name ?? times.name
        times.count += 1
        if let time = packet?.timestamp {
            if times.first == nil { times.first = time }
            times.last = time
            if times.times.count < limits.listed { times.times.append(time) }
            let connectionKey = EventKey(connection: activity.connection.id, characteristic: key)
            if let previous = lastEvent[connectionKey] {
                let gap = time - previous
                times.shortestGap = min(times.shortestGap ?? gap, gap)
            }
            if lastEvent[connectionKey] != nil || lastEvent.count < limits.groups { lastEvent[connectionKey] = time }
        }
        events[key] = times
        if let packet, burstsAwaitingActivity.remove(BurstKey(connection: activity.connection.id, packet: packet.number, id: activity.id)) != nil {
            events[key]?.bursts += 1
        }
    }
}
