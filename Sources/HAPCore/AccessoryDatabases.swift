import HAPEvents
import HAPJSON

/// The latest accessory database of every accessory the run has seen, keyed by device id (or,
/// while it is unknown, the accessory's address) and found again by the accessory's address, with
/// the body it was read from so that a body fetched again unchanged is recognised without parsing
/// it again; and the databases the user supplied (`--accessories`) for captures that hold none.
package struct AccessoryDatabases {
    package struct Entry {
        package let database: AccessoryDatabase
        package let body: [UInt8]
        /// The input file the database was read in.
        package let input: String?
        /// The `generation` it was stored at: the same serial is the same database.
        package let serial: Int
    }

    private var entries: [String: Entry] = [:]
    /// Counts the databases stored, so that a connection can keep the one it found until another
    /// is stored.
    package private(set) var generation = 0
    /// The key of the database last stored for each accessory address.
    private var keysByAccessory: [PeerAddress: String] = [:]
    private let supplied: [SuppliedDatabase]
    /// In a sharded run, where each lookup and store is noted (`FactAccess`): a connection keeps
    /// what it found until `generation` changes, so its later reads are not seen one by one, and
    /// the merger judges by who touched a key or an address instead (`FactMirror`).
    private let recorder: CallRecorder?

    package init(supplied: [SuppliedDatabase] = [], recorder: CallRecorder? = nil) {
        self.supplied = supplied
        self.recorder = recorder
    }

    package subscript(accessory: String) -> Entry? {
        recorder?.record(.fact(.consultedDatabase(key: accessory, accessory: nil)))
        return entries[accessory]
    }

    package mutating func store(_ database: AccessoryDatabase, body: [UInt8], for key: String, accessory: PeerAddress, input: String?) {
        recorder?.record(.fact(.storedDatabase(key: key, accessory: accessory)))
        generation += 1
        entries[key] = Entry(database: database, body: body, input: input, serial: generation)
        keysByAccessory[accessory] = key
    }

    /// A database found, with the serial that tells whether a later lookup found the same one.
    package struct Found {
        package let database: AccessoryDatabase
        package let source: AccessoryDatabaseEvent.Source
        /// The entry's `Entry.serial`; a supplied database's is negative (`-1 - its index`).
        package let serial: Int
    }

    /// The database a connection's characteristics are typed against, where it came from, and
    /// its serial: one this run read (by device id, then by the accessory's address), else one
    /// supplied (by device id without regard to case, by address, else the dump that names no
    /// accessory). `input` is the file being read: a database read in another file is said to
    /// come from it.
    package func found(deviceID: String?, accessory: PeerAddress, input: String?) -> Found? {
        let key = deviceID?.uppercased() ?? accessory.description
        recorder?.record(.fact(.consultedDatabase(key: key, accessory: accessory)))
        if let entry = entries[key] ?? keysByAccessory[accessory].flatMap({ entries[$0] }) {
            let source: AccessoryDatabaseEvent.Source = entry.input == input ? .response : .earlierInput(entry.input ?? "")
            return Found(database: entry.database, source: source, serial: entry.serial)
        }
        let match = supplied.firstIndex { $0.deviceID != nil && $0.deviceID?.uppercased() == deviceID?.uppercased() }
            ?? supplied.firstIndex { $0.accessory == accessory }
            ?? supplied.firstIndex { $0.deviceID == nil && $0.accessory == nil }
        return match.map { Found(database: supplied[$0].database, source: .supplied(supplied[$0].source), serial: -1 - $0) }
    }
}

/// An accessory database the user gave (`--accessories`): from a dump, which names no accessory,
/// or from an earlier capture, tied to the accessory's device id and address there.
public struct SuppliedDatabase: Sendable {
    public let database: AccessoryDatabase
    public let deviceID: String?
    public let accessory: PeerAddress?
    /// Where it came from, in words: `bridge.json`, or `config-a.pcap, accessory 1A:2B:3C:4D:5E:6F,
    /// /accessories in packet #37`.
    public let source: String

    public init(database: AccessoryDatabase, deviceID: String?, accessory: PeerAddress?, source: String) {
        self.database = database
        self.deviceID = deviceID
        self.accessory = accessory
        self.source = source
    }
}
