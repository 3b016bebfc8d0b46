import Capture
import HAPAnalysis
import HAPCore
import HAPEvents
import HAPJSON
import Reports

/// The accessory databases one input holds: a dump's, or each accessory's last `/accessories` in
/// a capture. `diff` compares two of them; `--accessories` supplies them to captures that hold
/// none.
struct DatabaseSnapshot {
    struct Database {
        /// The device ID (upper-cased), or the accessory's endpoint while it is unknown; nil for a
        /// dump.
        let key: String?
        let deviceID: String?
        /// The accessory's endpoint in the capture; nil for a dump.
        let accessory: PeerAddress?
        let database: AccessoryDatabase
        /// `config-a.pcap, accessory 1A:2B:3C:4D:5E:6F, /accessories in packet #37`.
        let source: String

        var json: JSONValue { database.json }

        var supplied: SuppliedDatabase {
            SuppliedDatabase(database: database, deviceID: deviceID, accessory: accessory, source: source)
        }
    }

    let databases: [Database]

    static func read(_ path: String, forceDump: Bool, configuration: AnalysisConfiguration) throws(CommandFailure) -> DatabaseSnapshot {
        let name = SystemInterface.baseName(path)
        if forceDump || DumpInput.isDump(path) {
            let dump = try DumpInput.database(path, limits: configuration.limits.json)
            return DatabaseSnapshot(databases: [Database(key: nil, deviceID: nil, accessory: nil, database: dump.database, source: name)])
        }
        let collector = LastDatabases()
        do {
            AnalysisPipeline(configuration: configuration, consumers: [collector]).run(try CaptureFileReader(files: [path]))
        } catch {
            throw CommandFailure(error.description)
        }
        guard !collector.databases.isEmpty else {
            throw CommandFailure("\(path): no GET /accessories response could be read, nor a BLE or CoAP attribute database (an encrypted session needs its key log)")
        }
        return DatabaseSnapshot(databases: collector.order.compactMap { key in
            collector.databases[key].map { last in
                Database(key: key, deviceID: last.deviceID, accessory: last.accessory, database: last.database,
                         source: "\(name), accessory \(key), \(last.transport.databaseReadName) in packet #\(last.packet)")
            }
        })
    }

    /// The databases to compare: a single one on each side whatever its accessory, else those
    /// of the same accessory.
    static func pairs(_ old: DatabaseSnapshot, _ new: DatabaseSnapshot) -> [(Database, Database)] {
        if old.databases.count == 1, new.databases.count == 1 { return [(old.databases[0], new.databases[0])] }
        return old.databases.compactMap { before in
            new.databases.first { $0.key != nil && $0.key == before.key }.map { (before, $0) }
        }
    }

    /// Keeps the last readable `/accessories` of each accessory, by device ID (or endpoint).
    private final class LastDatabases: HAPEventConsumer {
        var databases: [String: (database: AccessoryDatabase, deviceID: String?, accessory: PeerAddress, transport: HAPTransport, packet: Int)] = [:]
        var order: [String] = []

        func consume(_ event: HAPEvent) {
            guard case .accessoryDatabase(let found) = event.kind, found.source == .response, let database = found.database else { return }
            let key = found.deviceID?.uppercased() ?? found.connection.accessory.description
            if databases[key] == nil { order.append(key) }
            databases[key] = (database, found.deviceID, found.connection.accessory, found.connection.transport, event.packet?.number ?? 0)
        }
    }
}
