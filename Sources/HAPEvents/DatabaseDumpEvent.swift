import HAPJSON
import WireParsing

/// An accessory database read from a dump file rather than a capture (`hapscope audit
/// dump.json`): an input of its own, with no connection, judged by the database rules alone.
public struct DatabaseDumpEvent: Sendable {
    /// The file name, without its directory.
    public let name: String
    public let dump: AccessoryDatabaseDump?
    /// Why the file could not be read as a database; offsets count from its first byte.
    public let error: DecodeError?
    public let byteCount: Int

    public init(name: String, dump: AccessoryDatabaseDump?, error: DecodeError?, byteCount: Int) {
        self.name = name
        self.dump = dump
        self.error = error
        self.byteCount = byteCount
    }
}
