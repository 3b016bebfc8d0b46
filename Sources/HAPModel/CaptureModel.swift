import DNS
import HAPCatalog
import HAPEvents
import HAPJSON
import Packets
import TLV8

/// What a capture showed, aggregated from the event stream: accessories with their latest
/// advertisement and database, connections, pairing exchanges, sessions and characteristic
/// activity. A consumer like any report.
///
/// Memory stays bounded whatever the capture's size: per-message detail is counted, not kept,
/// and the lists that grow with the capture keep their first `retentionLimit` entries (reports say
/// when entries were left out).
public final class CaptureModel: HAPEventConsumer {
    /// How many connections, exchanges and problems are kept in full.
    public let retentionLimit: Int

    public private(set) var inputs: [InputOpenedEvent] = []
    public private(set) var accessories: [Accessory] = []
    private var accessoryIndex: [String: Int] = [:]
    public private(set) var connections: [Connection] = []
    private var connectionIndex: [Int: Int] = [:]
    public private(set) var exchanges: [PairingExchangeEvent] = []
    public private(set) var problems: [(packet: PacketInfo?, problem: CaptureProblem)] = []
    public private(set) var problemCounts: [CaptureProblem.Kind: Int] = [:]
    public private(set) var counts = Counts()
    /// Totals, once the input has ended.
    public private(set) var summary: InputSummary?

    /// Event counts for the summary.
    public struct Counts: Sendable {
        public var advertisements = 0
        public var goodbyes = 0
        public var matterAdvertisements = 0
        public var httpMessages = 0
        public var decryptedHTTPMessages = 0
        public var pairingExchanges: [PairingProcedure: (succeeded: Int, failed: Int, incomplete: Int)] = [:]
        public var sessions = 0
        public var decryptedSessions = 0
        public var sessionProblems: [SessionProblemEvent.Kind: Int] = [:]
        public var characteristicActivity: [CharacteristicActivity.Kind: Int] = [:]
        public var droppedConnections = 0
        public var droppedExchanges = 0
        public var droppedProblems = 0
    }

    /// One accessory, keyed by its device id (or its address when no id was learned).
    public struct Accessory: Sendable {
        public let key: String
        public var deviceID: String?
        /// The mDNS instance name, as a user reads it.
        public var instanceName: String?
        public var model: String?
        public var categoryIdentifier: UInt64?
        public var categoryName: String?
        public var configurationNumber: UInt64?
        public var statusFlags: HAPStatusFlags?
        /// HAP over Bluetooth LE: the global state number of the latest regular advertisement.
        public var globalStateNumber: UInt16?
        /// Where it was reached: advertised endpoints and the accessory side of its connections.
        public var endpoints: [PeerAddress] = []
        public var advertisements = 0
        public var firstSeen: PacketInfo?
        public var database: AccessoryDatabase?
        /// Where the database came from: a response in this capture, or elsewhere when the
        /// capture holds none.
        public var databaseSource: AccessoryDatabaseEvent.Source?
        /// The `/accessories` responses read from the accessory in the capture.
        public var databaseVersions = 0
        public var lastDatabaseDiff: AccessoryDatabaseDiff?
        public var connectionIDs: [Int] = []
        /// Reads, writes and events per characteristic, with the last value seen.
        public var characteristics: [CharacteristicID: CharacteristicRecord] = [:]

        /// Takes in what was recorded under another key for the same accessory.
        mutating func absorb(_ other: Accessory) {
            for endpoint in other.endpoints where !endpoints.contains(endpoint) { endpoints.append(endpoint) }
            connectionIDs = (connectionIDs + other.connectionIDs.filter { !connectionIDs.contains($0) }).sorted()
            if let seen = other.firstSeen, firstSeen.map({ seen.number < $0.number }) ?? true { firstSeen = seen }
            if database == nil || (databaseSource != .response && other.databaseSource == .response) {
                database = other.database ?? database
                databaseSource = other.databaseSource ?? databaseSource
            }
            databaseVersions += other.databaseVersions
            lastDatabaseDiff = lastDatabaseDiff ?? other.lastDatabaseDiff
            characteristics.merge(other.characteristics) { mine, theirs in
                CharacteristicRecord(name: mine.name ?? theirs.name, reads: mine.reads + theirs.reads, writes: mine.writes + theirs.writes,
                                     events: mine.events + theirs.events, lastValue: mine.lastValue ?? theirs.lastValue,
                                     lastStatus: mine.lastStatus ?? theirs.lastStatus)
            }
        }

        /// The name from the accessory database's Accessory Information, else the one a controller
        /// read from it (HAP over Bluetooth LE and CoAP databases carry no values), else the mDNS name.
        public var name: String? {
            database?.accessories.first?.name ?? nameRead ?? instanceName
        }

        /// The last value read or notified of the first accessory's Accessory Information Name.
        private var nameRead: String? {
            guard let accessory = database?.accessories.first,
                  let characteristic = accessory.accessoryInformation?.characteristic(ofType: HAPUUID(appleDefined: 0x23)),
                  case .string(let name)? = characteristics[CharacteristicID(aid: accessory.aid, iid: characteristic.iid)]?.lastValue?.value
            else { return nil }
            return name
        }
    }

    public struct CharacteristicRecord: Sendable {
        public var name: String?
        public var reads = 0
        public var writes = 0
        public var events = 0
        public var lastValue: InterpretedValue?
        public var lastStatus: HAPStatus?
    }

    /// One HAP connection and how its session went.
    public struct Connection: Sendable {
        public let info: ConnectionInfo
        public var deviceID: String?
        public let opened: PacketInfo?
        public let handshakeSeen: Bool
        public var session: SessionStartEvent?
        /// The packet whose pairing message switched the connection to encrypted frames.
        public var sessionStartPacket: PacketInfo?
        public var sessionProblems: [SessionProblemEvent] = []
        public var closed: ConnectionSummary?
        public var httpMessages = 0
        public var pairingExchanges = 0
        /// A session the capture began inside: how each direction was joined.
        public var joins: [HAPDirection: SessionJoinEvent.Outcome] = [:]
    }

    public init(retentionLimit: Int = 10_000) {
        self.retentionLimit = retentionLimit
    }

    public func consume(_ event: HAPEvent) {
        switch event.kind {
        case .inputOpened(let input):
            inputs.append(input)
        case .problem(let problem):
            problemCounts[problem.kind, default: 0] += 1
            if problems.count < retentionLimit { problems.append((event.packet, problem)) } else { counts.droppedProblems += 1 }
        case .advertisement(let advertisement):
            record(advertisement, packet: event.packet)
        case .bleAdvertisement(let advertisement):
            record(advertisement, packet: event.packet)
        case .mdnsQuery, .decryptedData:
            break
        case .connectionOpened(let opened):
            guard connections.count < retentionLimit else {
                counts.droppedConnections += 1
                return
            }
            connectionIndex[opened.connection.id] = connections.count
            connections.append(Connection(info: opened.connection, deviceID: opened.deviceID, opened: event.packet, handshakeSeen: opened.handshakeSeen))
            if let id = opened.deviceID { link(opened.connection, toAccessory: id) }
        case .httpMessage(let http):
            counts.httpMessages += 1
            if http.encrypted { counts.decryptedHTTPMessages += 1 }
            updateConnection(http.connection.id) { $0.httpMessages += 1 }
        case .pairingMessage:
            break
        case .pairingExchange(let exchange):
            var tally = counts.pairingExchanges[exchange.procedure] ?? (0, 0, 0)
            switch exchange.outcome {
            case .succeeded: tally.succeeded += 1
            case .failed: tally.failed += 1
            case .incomplete: tally.incomplete += 1
            }
            counts.pairingExchanges[exchange.procedure] = tally
            updateConnection(exchange.connection.id) { $0.pairingExchanges += 1 }
            if exchanges.count < retentionLimit { exchanges.append(exchange) } else { counts.droppedExchanges += 1 }
        case .sessionStarted(let start):
            counts.sessions += 1
            if !start.decryptable.isEmpty { counts.decryptedSessions += 1 }
            updateConnection(start.connection.id) {
                $0.session = start
                $0.sessionStartPacket = event.packet
            }
        case .sessionJoined(let join):
            updateConnection(join.connection.id) { $0.joins[join.direction] = join.outcome }
        case .sessionProblem(let problem):
            counts.sessionProblems[problem.kind, default: 0] += 1
            updateConnection(problem.connection.id) { if $0.sessionProblems.count < 16 { $0.sessionProblems.append(problem) } }
        case .accessoryDatabase(let database):
            guard let new = database.database else { return }
            let key = database.deviceID ?? database.connection.accessory.description
            let index = accessoryIndex[key] ?? addAccessory(key: key, deviceID: database.deviceID, packet: event.packet)
            // A response replaces what an earlier file or --accessories gave; never the reverse.
            guard database.source == .response || accessories[index].databaseSource != .response else { return }
            accessories[index].database = new
            accessories[index].databaseSource = database.source
            if database.source == .response { accessories[index].databaseVersions += 1 }
            if let diff = database.diff, !diff.isEmpty { accessories[index].lastDatabaseDiff = diff }
        case .characteristic(let activity):
            counts.characteristicActivity[activity.kind, default: 0] += 1
            record(activity, packet: event.packet)
        case .connectionClosed(let summary):
            updateConnection(summary.connection.id) {
                $0.closed = summary
                $0.deviceID = summary.deviceID ?? $0.deviceID
            }
            if let id = summary.deviceID { link(summary.connection, toAccessory: id) }
        case .inputEnded(let summary):
            self.summary = summary
        case .databaseDump:
            // A dump is no capture: the model describes captured traffic.
            break
        }
    }

    // MARK: Updating

    private func record(_ advertisement: AdvertisementEvent, packet: PacketInfo?) {
        counts.advertisements += 1
        if advertisement.service.isGoodbye { counts.goodbyes += 1 }
        if advertisement.isMatter { counts.matterAdvertisements += 1 }
        guard let hap = advertisement.service.hap else { return }
        let key = hap.deviceID ?? advertisement.service.name.escapedText
        let index = accessoryIndex[key] ?? addAccessory(key: key, deviceID: hap.deviceID, packet: packet)
        var accessory = accessories[index]
        accessory.advertisements += 1
        accessory.instanceName = advertisement.service.instance.instanceText
        accessory.model = hap.model ?? accessory.model
        accessory.categoryIdentifier = hap.categoryIdentifier ?? accessory.categoryIdentifier
        accessory.categoryName = hap.categoryName ?? accessory.categoryName
        accessory.configurationNumber = hap.configurationNumber ?? accessory.configurationNumber
        accessory.statusFlags = hap.statusFlags ?? accessory.statusFlags
        if let port = advertisement.service.location?.port {
            for address in advertisement.service.addresses.map({ IPAddress($0.address) }) + [advertisement.sender.address] {
                let endpoint = PeerAddress.ip(Endpoint(address: address, port: port))
                if !accessory.endpoints.contains(endpoint) { accessory.endpoints.append(endpoint) }
            }
        }
        accessories[index] = accessory
        absorbAccessoriesKnownByEndpoint(into: index)
    }

    /// A HAP-BLE advertisement: a regular one says what the Bonjour TXT record says over IP;
    /// an encrypted notification is counted.
    private func record(_ advertisement: BLEAdvertisementEvent, packet: PacketInfo?) {
        counts.advertisements += 1
        guard let regular = advertisement.regular else { return }
        let key = regular.deviceIDText
        guard let index = accessoryIndex[key] ?? (accessories.count < retentionLimit ? addAccessory(key: key, deviceID: key, packet: packet) : nil)
        else { return }
        var accessory = accessories[index]
        accessory.advertisements += 1
        accessory.categoryIdentifier = UInt64(regular.category)
        accessory.categoryName = HAPCatalog.categoryName(Int(regular.category)) ?? accessory.categoryName
        accessory.configurationNumber = UInt64(regular.configurationNumber)
        accessory.statusFlags = HAPStatusFlags(rawValue: UInt64(regular.statusFlags))
        accessory.globalStateNumber = regular.globalStateNumber
        let endpoint = PeerAddress.bluetooth(advertisement.advertiser)
        if !accessory.endpoints.contains(endpoint) { accessory.endpoints.append(endpoint) }
        accessories[index] = accessory
        absorbAccessoriesKnownByEndpoint(into: index)
    }

    private func record(_ activity: CharacteristicActivity, packet: PacketInfo?) {
        let key = activity.deviceID ?? activity.connection.accessory.description
        guard let index = accessoryIndex[key] ?? (accessories.count < retentionLimit ? addAccessory(key: key, deviceID: activity.deviceID, packet: packet) : nil) else { return }
        var record = accessories[index].characteristics[activity.id] ?? CharacteristicRecord()
        guard record.reads + record.writes + record.events > 0 || accessories[index].characteristics.count < retentionLimit else { return }
        record.name = activity.name ?? record.name
        switch activity.kind {
        case .read: record.reads += 1
        case .write: record.writes += 1
        case .event: record.events += 1
        case .subscribe, .unsubscribe: break
        }
        if let value = activity.value { record.lastValue = value }
        record.lastStatus = activity.status
        accessories[index].characteristics[activity.id] = record
    }

    private func addAccessory(key: String, deviceID: String?, packet: PacketInfo?) -> Int {
        accessoryIndex[key] = accessories.count
        var accessory = Accessory(key: key)
        accessory.deviceID = deviceID
        accessory.firstSeen = packet
        accessories.append(accessory)
        return accessories.count - 1
    }

    /// Records that `connection` reached the accessory `deviceID` (created if first seen here).
    private func link(_ connection: ConnectionInfo, toAccessory deviceID: String) {
        let index = accessoryIndex[deviceID] ?? addAccessory(key: deviceID, deviceID: deviceID, packet: nil)
        if !accessories[index].endpoints.contains(connection.accessory) { accessories[index].endpoints.append(connection.accessory) }
        if !accessories[index].connectionIDs.contains(connection.id) { accessories[index].connectionIDs.append(connection.id) }
        absorbAccessoriesKnownByEndpoint(into: index)
    }

    /// A connection already running when the capture began shows no device ID, so its accessory
    /// is first known by its endpoint; once an advertisement or another connection ties that
    /// endpoint to a device ID, the two are one accessory, and the endpoint keeps leading to it.
    private func absorbAccessoriesKnownByEndpoint(into index: Int) {
        guard accessories[index].deviceID != nil else { return }
        var target = index
        for endpoint in accessories[target].endpoints {
            let key = endpoint.description
            guard let other = accessoryIndex[key], other != target, accessories[other].deviceID == nil else { continue }
            let absorbed = accessories.remove(at: other)
            if other < target { target -= 1 }
            for (key, position) in accessoryIndex where position >= other {
                accessoryIndex[key] = position == other ? target : position - 1
            }
            accessories[target].absorb(absorbed)
        }
    }

    private func updateConnection(_ id: Int, _ update: (inout Connection) -> Void) {
        guard let index = connectionIndex[id] else { return }
        update(&connections[index])
    }

    // MARK: Queries

    public func connection(_ id: Int) -> Connection? {
        connectionIndex[id].map { connections[$0] }
    }
}
