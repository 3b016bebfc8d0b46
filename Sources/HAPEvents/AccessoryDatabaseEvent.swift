import HAPJSON
import WireParsing

/// The accessory database (`/accessories` over IP, the attribute database over BLE and CoAP),
/// and how it differs from the previous one seen for the same accessory.
public struct AccessoryDatabaseEvent: Sendable {
    public let connection: ConnectionInfo
    /// The accessory's device id, when the connection is tied to one.
    public let deviceID: String?
    public let database: AccessoryDatabase?
    /// Why the body could not be read as a database; the offset counts from the body's first byte.
    public let error: DecodeError?
    /// Changes from the previous database of the same accessory; nil for the first.
    public let diff: AccessoryDatabaseDiff?
    public let bodyByteCount: Int
    /// Where the database came from.
    public let source: Source

    /// Where an accessory database came from: the reports say so whenever it is not the
    /// connection's own response.
    public enum Source: Sendable, Hashable {
        /// An `/accessories` response in the input being read.
        case response
        /// The `/accessories` response of an earlier input file of the run, named: this
        /// capture holds none for the accessory.
        case earlierInput(String)
        /// Given with `--accessories`, named as the user gave it (a dump, or a capture with
        /// where in it).
        case supplied(String)
    }

    public init(
        connection: ConnectionInfo, deviceID: String?, database: AccessoryDatabase?, error: DecodeError?,
        diff: AccessoryDatabaseDiff?, bodyByteCount: Int, source: Source = .response
    ) {
        self.source = source
        self.connection = connection
        self.deviceID = deviceID
        self.database = database
        self.error = error
        self.diff = diff
        self.bodyByteCount = bodyByteCount
    }
}
