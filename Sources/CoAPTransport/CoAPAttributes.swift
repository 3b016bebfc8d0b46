import HAPCatalog
import HAPCore
import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import TLV8
import WireParsing

/// The database and characteristics of one HAP-over-CoAP connection: a database-read (0x09)
/// response becomes an `accessoryDatabase` event, reads (0x03), writes (0x02), subscriptions
/// (0x0B, 0x0C) and the accessory's event records become `characteristic` events, typed by the
/// database the run knows for the accessory.
///
/// PDUs name characteristics by IID alone; aiohomekit takes the aid as 1 for events and ignores
/// it elsewhere, relying on IIDs being unique across the accessory (aiohomekit
/// `controller/coap/connection.py` `read_characteristics`, `EventResource.render_put`). Here the
/// aid is the one of the database's accessory holding the IID, else 1.
final class CoAPAttributes {
    private let context: AnalysisContext
    private let info: ConnectionInfo
    private let deviceID: String?

    init(context: AnalysisContext, info: ConnectionInfo, deviceID: String?) {
        self.context = context
        self.info = info
        self.deviceID = deviceID
    }

    private var databaseKey: String { deviceID?.uppercased() ?? info.accessory.description }

    /// A PDU response with the request it answers.
    func response(_ response: HAPPDUResponse, to request: HAPPDURequest, requestPacket: PacketInfo?, timing: ResponseTiming?, packet: PacketInfo) {
        let status = HAPStatus(pduStatus: response.status, answering: request.opcode)
        switch request.opcode {
        case .databaseRead where response.status == .success:
            database(response.body, packet: packet)
        case .characteristicRead:
            activity(.read, iid: request.instanceID, value: response.status == .success ? Self.value(in: response.body) : nil,
                     status: status, requestPacket: requestPacket, timing: timing, packet: packet)
        case .characteristicWrite, .characteristicTimedWrite:
            activity(.write, iid: request.instanceID, value: Self.value(in: request.body), status: status,
                     requestPacket: requestPacket, timing: timing, packet: packet)
        case .subscribe:
            activity(.subscribe, iid: request.instanceID, value: nil, status: status, requestPacket: requestPacket, timing: timing, packet: packet)
        case .unsubscribe:
            activity(.unsubscribe, iid: request.instanceID, value: nil, status: status, requestPacket: requestPacket, timing: timing, packet: packet)
        default:
            break
        }
    }

    /// One record of an event the accessory PUT.
    func event(_ record: HAPCoAPEvent.Record, packet: PacketInfo) {
        activity(.event, iid: UInt64(record.instanceID), value: Self.value(in: record.body), status: nil, requestPacket: nil, timing: nil, packet: packet)
    }

    // MARK: The database

    private func database(_ body: [UInt8], packet: PacketInfo) {
        let key = databaseKey
        // Controllers read the database on every connection; an unchanged body is the one known.
        if let known = context.databases[key], known.body == body {
            context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
                connection: info, deviceID: deviceID, database: known.database, error: nil, diff: .unchanged, bodyByteCount: body.count)), packet)
            return
        }
        var database: AccessoryDatabase?
        var failure: DecodeError?
        do {
            var cursor = ByteCursor(body.span.bytes, layer: .hapPDU)
            database = try CoAPDatabaseModel.accessoryDatabase(HAPDatabase(parsing: &cursor))
        } catch {
            failure = error
        }
        let previous = context.databases[key]?.database
        if let database { context.databases.store(database, body: body, for: key, accessory: info.accessory, input: context.currentInput) }
        context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
            connection: info, deviceID: deviceID, database: database, error: failure,
            diff: database.flatMap { new in previous.map { AccessoryDatabaseDiff(from: $0, to: new) } }, bodyByteCount: body.count)), packet)
    }

    /// The database last found, with the generation of the run's databases and the input it was
    /// found for: the answer changes only when a database is stored or another input is read, so
    /// it is not found again (with the device ID upper-cased) for every activity.
    private var found: (generation: Int, input: String?, database: AccessoryDatabase?)?

    private func currentDatabase() -> AccessoryDatabase? {
        let generation = context.databases.generation
        let input = context.currentInput
        if let found, found.generation == generation, found.input == input { return found.database }
        let database = context.databases.found(deviceID: deviceID, accessory: info.accessory, input: input)?.database
        found = (generation, input, database)
        return database
    }

    // MARK: Characteristics

    private func activity(
        _ kind: CharacteristicActivity.Kind, iid: UInt64, value: [UInt8]?, status: HAPJSON.HAPStatus?, requestPacket: PacketInfo?,
        timing: ResponseTiming?, packet: PacketInfo
    ) {
        let database = currentDatabase()
        let id = database?.characteristicID(iid: iid) ?? CharacteristicID(aid: 1, iid: iid)
        let characteristic = database?.characteristic(id)
        let interpreted = value.map { bytes -> InterpretedValue in
            guard let characteristic, let format = characteristic.format else {
                return InterpretedValue(decoding: GATTValue.untypedJSON(bytes), as: nil)
            }
            guard let json = GATTValue.json(bytes, format: format) else {
                return InterpretedValue(value: .bytes(bytes), issues: [.wrongFormat(expected: format, found: "\(bytes.count) bytes")])
            }
            return characteristic.interpret(json)
        }
        let (shown, structure) = CharacteristicValueStructure.read(
            interpreted, type: characteristic?.type, kind: kind, revealSecrets: context.configuration.revealsSessionKeys)
        context.emit(.characteristic(CharacteristicActivity(
            connection: info, deviceID: deviceID, kind: kind, id: id, type: characteristic?.type, name: characteristic?.name,
            unit: characteristic?.unit, format: characteristic?.format, value: shown, structure: structure,
            status: status, requestPacket: requestPacket, responseTiming: timing)), packet)
    }

    /// The HAP-Param-Value of a PDU or event body (HomeKitADK `HAPBLEPDU+TLV.h`, type 0x01).
    private static func value(in body: [UInt8]) -> [UInt8]? {
        guard !body.isEmpty, let items = try? HAPPDUBody.items(body) else { return nil }
        return items.first { $0.type == HAPPDUParameterType.value }?.value
    }

}
