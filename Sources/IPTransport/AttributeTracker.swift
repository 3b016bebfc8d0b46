import HAPCore
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import WireParsing

/// The accessory database and the characteristics of one HAP-over-IP connection: `/accessories`
/// responses become `accessoryDatabase` events, `/characteristics` reads, writes and EVENTs
/// become `characteristic` events typed by the database the run knows for the accessory.
final class AttributeTracker {
    private let context: AnalysisContext
    private let info: ConnectionInfo
    /// Whether a database not read on this connection's input was announced, so that reports
    /// can say where the connection's database came from.
    private var announcedBorrowedDatabase = false
    /// The database last found, and what it was found for: the lookup is made once per message,
    /// and its answer changes only when a database is stored or the device ID is learned.
    private var found: FoundDatabase?

    /// What a lookup found, kept as one reference so that reusing it, and handing it to each
    /// characteristic of a message, copies no database.
    final class FoundDatabase {
        let deviceID: String?
        let generation: Int
        let input: String?
        let database: AccessoryDatabase?
        /// The database's characteristics, held apart so that each activity's lookup copies no
        /// database (an outlined copy of the optional structure, ~200 instructions a lookup).
        let characteristics: CharacteristicIndex?
        let source: AccessoryDatabaseEvent.Source
        /// `AccessoryDatabases.Found.serial` of the database, nil when none was found.
        let serial: Int?
        let holdsSecretValues: Bool

        /// The database when it has characteristics whose values carry key material.
        var databaseWithSecretValues: AccessoryDatabase? { holdsSecretValues ? database : nil }

        /// - Parameter previous: the connection's last lookup: when it found the same database,
        ///   whether that holds secret values is known (a scan of every characteristic, made again
        ///   only for a database not seen yet: any connection's `/accessories` starts a new lookup).
        init(deviceID: String?, generation: Int, input: String?, found: AccessoryDatabases.Found?, previous: FoundDatabase?) {
            self.deviceID = deviceID
            self.generation = generation
            self.input = input
            database = found?.database
            characteristics = found?.database.characteristics
            source = found?.source ?? .response
            serial = found?.serial
            if let previous, previous.serial == serial {
                holdsSecretValues = previous.holdsSecretValues
            } else {
                holdsSecretValues = found.map { CharacteristicBodySecrets.holdsSecretValues($0.database) } ?? false
            }
        }
    }

    init(context: AnalysisContext, connection: ConnectionInfo) {
        self.context = context
        self.info = connection
    }

    /// The key the accessory's database is kept under: its device id, else its address.
    /// HAP compares device IDs without regard to case.
    private func databaseKey(deviceID: String?) -> String { deviceID?.uppercased() ?? info.accessory.description }

    // MARK: The accessory database

    /// An `/accessories` body read, before its message is reported (the report needs to know
    /// whether it holds key material) and reported after it. A reference: every message handles
    /// an optional one, and destroying an optional structure holding a database cost ~140
    /// instructions each time even when it was nil.
    final class DatabaseRead {
        let database: AccessoryDatabase?
        let failure: DecodeError?
        /// The body is the database already known, byte for byte.
        let unchanged: Bool

        init(database: AccessoryDatabase?, failure: DecodeError?, unchanged: Bool) {
            self.database = database
            self.failure = failure
            self.unchanged = unchanged
        }
    }

    /// Reads a `GET /accessories` 200 OK body. Controllers fetch the database on every
    /// connection; an unchanged body is the database already known, not parsed again.
    func readDatabase(_ message: HTTPMessage, deviceID: String?) -> DatabaseRead {
        if let known = context.databases[databaseKey(deviceID: deviceID)], message.hasBody(known.body) {
            return DatabaseRead(database: known.database, failure: nil, unchanged: true)
        }
        do {
            var cursor = ByteCursor(message.bodySpan, layer: .json)
            return DatabaseRead(database: try AccessoryDatabase(parsing: &cursor, limits: context.limits.json), failure: nil, unchanged: false)
        } catch {
            return DatabaseRead(database: nil, failure: error, unchanged: false)
        }
    }

    /// HAP: `GET /accessories` answered with 200 OK, as `readDatabase` read it.
    func accessoryDatabase(_ message: HTTPMessage, read: DatabaseRead, deviceID: String?, packet: PacketInfo) {
        let key = databaseKey(deviceID: deviceID)
        if read.unchanged {
            context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
                connection: info, deviceID: deviceID, database: read.database, error: nil,
                diff: .unchanged, bodyByteCount: message.body.count)), packet)
            return
        }
        let database = read.database
        let failure = read.failure
        if let limit = failure?.limit {
            context.limitReached(limit, "\(info): a JSON limit was reached in /accessories: \(failure!)", packet)
        }
        let previous = context.databases[key]?.database
        if let database { context.databases.store(database, body: Array(message.body), for: key, accessory: info.accessory, input: context.currentInput) }
        context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
            connection: info, deviceID: deviceID, database: database, error: failure,
            diff: database.flatMap { new in previous.map { AccessoryDatabaseDiff(from: $0, to: new) } },
            bodyByteCount: message.body.count)), packet)
    }

    // MARK: Characteristics

    /// HAP: `GET /characteristics` answered with 200 or 207: one read per entry.
    func readResponse(_ message: HTTPMessage, for request: PendingRequest, database: FoundDatabase, packet: PacketInfo) {
        guard let response = decodeBody(message, packet: packet, as: CharacteristicReadResponse.self, kind: .readResponse, request: request)
        else { return }
        announceIfBorrowed(database, packet: packet)
        // Read in place through a span: `for entry in` copied each entry out of the array and
        // destroyed it (~170 instructions an entry).
        let entries = response.entries.span
        for index in entries.indices {
            activity(.read, entries[index].id, value: entries[index].value, status: entries[index].status, packet: packet, database: database)
        }
    }

    /// HAP: an `EVENT/1.0` notification: one event per entry. `parsed` is its body, read once
    /// before the message was reported (the notification checks need the characteristics it
    /// names); a body that is not HAP JSON is reported here.
    func event(_ message: HTTPMessage, parsed: Result<CharacteristicEvent, DecodeError>?, database: FoundDatabase, packet: PacketInfo) {
        guard let event = report(parsed, of: message, packet: packet, kind: .event) else { return }
        announceIfBorrowed(database, packet: packet)
        let entries = event.entries.span  // in place, as `readResponse` reads its entries
        for index in entries.indices {
            activity(.event, entries[index].id, value: entries[index].value, status: entries[index].status, packet: packet, database: database)
        }
    }

    /// HAP: the answer to `PUT /characteristics`: 204 for all written, 207 with a status per
    /// entry, anything else a failure of the whole write.
    func writeResults(_ message: HTTPMessage, for request: PendingRequest, database: FoundDatabase, packet: PacketInfo) {
        guard let writes = request.writes else { return }
        var statuses: [CharacteristicID: HAPStatus] = [:]
        if message.status == .multiStatus,
           let response = decodeBody(message, packet: packet, as: CharacteristicWriteResponse.self, kind: .writeResponse, request: request) {
            for entry in response.entries { statuses[entry.id] = entry.status }
        }
        // Compared one by one: `[.noContent, .multiStatus, .ok].contains` allocated the array for
        // every write response.
        let failedWhole = message.status != .noContent && message.status != .multiStatus && message.status != .ok
        announceIfBorrowed(database, packet: packet)
        let entries = writes.entries.span  // in place, as `readResponse` reads its entries
        for index in entries.indices {
            let id = entries[index].id
            let status = failedWhole ? HAPStatus.unableToCommunicate : statuses[id]
            if entries[index].value != nil {
                activity(.write, id, value: entries[index].value, status: status, packet: packet, database: database, request: request)
            }
            if let events = entries[index].eventsEnabled {
                activity(events ? .subscribe : .unsubscribe, id, value: nil, status: status, packet: packet, database: database,
                         request: request)
            }
        }
    }

    /// The writes of a request the accessory never answered, when the connection ended.
    func unansweredWrites(_ request: PendingRequest, deviceID: String?, packet: PacketInfo) {
        let database = lookUp(deviceID: deviceID)
        announceIfBorrowed(database, packet: packet)
        for entry in request.writes?.entries ?? [] where entry.value != nil {
            activity(.write, entry.id, value: entry.value, status: nil, packet: packet, database: database, request: request,
                     answered: false)
        }
    }

    private func activity(
        _ kind: CharacteristicActivity.Kind, _ id: CharacteristicID, value: JSONValue?, status: HAPStatus?, packet: PacketInfo,
        database: FoundDatabase, request: PendingRequest? = nil, answered: Bool = true
    ) {
        let characteristic = database.characteristics?[id]
        let interpreted = value.map { json in characteristic?.interpret(json) ?? InterpretedValue(decoding: json, as: nil) }
        let (shown, structure) = CharacteristicValueStructure.read(
            interpreted, type: characteristic?.type, kind: kind, revealSecrets: context.configuration.revealsSessionKeys)
        context.emit(.characteristic(CharacteristicActivity(
            connection: info, deviceID: database.deviceID, kind: kind, id: id, type: characteristic?.type,
            name: characteristic?.name, unit: characteristic?.unit, format: characteristic?.format,
            value: shown, structure: structure,
            status: status.flatMap { $0 == .success ? nil : $0 },
            timedWrite: request?.timedWrite ?? false, requestPacket: request?.packet, answered: answered)), packet)
        if let structure, let error = structure.error {
            context.emit(.problem(CaptureProblem(
                .undecodableValue, "\(info): \(kind.rawValue) \(id) \(structure.schemaName): \(error) (offset in the value)",
                connection: info, direction: kind == .write ? .controllerToAccessory : .accessoryToController)), packet)
        }
    }

    /// The accessory database this connection's characteristics are typed against. Looked up
    /// once per message and handed to each use: its answer changes only when a database is
    /// stored or the device ID is learned, which no use within a message does.
    func lookUp(deviceID: String?) -> FoundDatabase {
        let generation = context.databases.generation
        let input = context.currentInput
        if let found, found.deviceID == deviceID, found.generation == generation, found.input == input {
            return found
        }
        let lookup = context.databases.found(deviceID: deviceID, accessory: info.accessory, input: input)
        let new = FoundDatabase(deviceID: deviceID, generation: generation, input: input, found: lookup, previous: found)
        found = new
        return new
    }

    /// A database this connection's input did not read (an earlier file's, or one supplied) is
    /// announced once, with where it came from, before the first characteristic typed by it.
    func announceIfBorrowed(_ found: FoundDatabase, packet: PacketInfo) {
        guard found.source != .response, !announcedBorrowedDatabase, let database = found.database else { return }
        announcedBorrowedDatabase = true
        context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
            connection: info, deviceID: found.deviceID, database: database, error: nil, diff: nil, bodyByteCount: 0, source: found.source)), packet)
    }

    /// Decodes a JSON body in place, reporting a failure as a problem naming the packet, with the
    /// facts the audit judges (`UndecodableBody`: where it broke, what asked for it).
    func decodeBody<Body: HAPJSONBody>(
        _ message: HTTPMessage, packet: PacketInfo, as type: Body.Type, kind: UndecodableBody.Kind, request: PendingRequest? = nil
    ) -> Body? {
        report(parseBody(message, as: type), of: message, packet: packet, kind: kind, request: request)
    }

    /// A JSON body parsed in place; nil when there is none.
    func parseBody<Body: HAPJSONBody>(_ message: HTTPMessage, as _: Body.Type) -> Result<Body, DecodeError>? {
        guard !message.body.isEmpty else { return nil }
        var cursor = ByteCursor(message.bodySpan, layer: .json)
        return Result { () throws(DecodeError) in try Body(parsing: &cursor, limits: context.limits.json) }
    }

    /// The parsed body, or nil with its failure reported as a problem naming the packet.
    private func report<Body>(
        _ parsed: Result<Body, DecodeError>?, of message: HTTPMessage, packet: PacketInfo, kind: UndecodableBody.Kind,
        request: PendingRequest? = nil
    ) -> Body? {
        switch parsed {
        case nil:
            return nil
        case .success(let body):
            return body
        case .failure(let error):
            if let limit = error.limit {
                context.limitReached(limit, "\(info): a JSON limit was reached: \(error)", packet)
            }
            let body = UndecodableBody(
                kind: kind, error: error, byteCount: message.body.count,
                request: request.map { .init(method: $0.method, target: $0.target, packet: $0.packet) })
            context.emit(.problem(CaptureProblem(
                .undecodableBody, "\(info): body of \(Self.startLine(message)) is not valid HAP JSON: \(error)",
                connection: info, direction: message.kind == .request ? .controllerToAccessory : .accessoryToController,
                body: body)), packet)
            return nil
        }
    }

    /// `PUT /characteristics`, `HTTP/1.1 207 Multi-Status`, `EVENT/1.0 200 OK`.
    private static func startLine(_ message: HTTPMessage) -> String {
        if let line = message.requestLine { return "\(line.method) \(line.target)" }
        let scheme = message.kind == .event ? "EVENT" : "HTTP"
        return message.statusLine.map { "\(scheme)/\($0.version) \($0.status)" } ?? "message"
    }
}
