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
    }

    private var entries: [String: Entry] = [:]
    /// Counts the databases stored, so that a connection can keep the one it found until another
    /// is stored.
    package private(set) var generation = 0
    /// The key of the database last stored for each accessory address.
    private var keysByAccessory: [PeerAddress: String] = [:]
    private let supplied: [SuppliedDatabase]

    package init(supplied: [SuppliedDatabase] = []) {
        self.supplied = supplied
    }

    package subscript(accessory: String) -> Entry? {
        entries[accessory]
    }

    package mutating func store(_ database: AccessoryDatabase, body: [UInt8], for key: String, accessory: PeerAddress, input: String?) {
        entries[key] = Entry(database: database, body: body, input: input)
        generation += 1
        keysByAccessory[accessory] = key
    }

    /// The database a connection's characteristics are typed against, and where it came from:
    /// one this run read (by device id, then by the accessory's address), else one supplied (by
    /// device id without regard to case, by address, else the dump that names no accessory).
    /// `input` is the file being read: a database read in another file is said to come from it.
    package func database(deviceID: String?, accessory: PeerAddress, input: String?) -> (AccessoryDatabase, AccessoryDatabaseEvent.Source)? {
        let key = deviceID?.uppercased() ?? accessory.description
        if let entry = entries[key] ?? keysByAccessory[accessory].flatMap({ entries[$0] }) {
            let source: AccessoryDatabaseEvent.Source = entry.input == input ? .response : .earlierInput(entry.input ?? "")
            return (entry.database, source)
        }
        let match = supplied.first { $0.deviceID != nil && $0.deviceID?.uppercased() == deviceID?.uppercased() }
            ?? supplied.first { $0.accessory == accessory }
            ?? supplied.first { $0.deviceID == nil && $0.accessory == nil }
        return match.map { ($0.database, .supplied($0.source)) }
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
