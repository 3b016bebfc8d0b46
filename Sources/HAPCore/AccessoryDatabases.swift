import HAPJSON

/// The latest accessory database of every accessory the run has seen, keyed by device id (or,
/// while it is unknown, the accessory's address), with the body it was read from so that a body
/// fetched again unchanged is recognised without parsing it again.
package struct AccessoryDatabases {
    package struct Entry {
        package let database: AccessoryDatabase
        package let body: [UInt8]
    }

    private var entries: [String: Entry] = [:]

    package init() {}

    package subscript(accessory: String) -> Entry? {
        entries[accessory]
    }

    package mutating func store(_ database: AccessoryDatabase, body: [UInt8], for accessory: String) {
        entries[accessory] = Entry(database: database, body: body)
    }
}
