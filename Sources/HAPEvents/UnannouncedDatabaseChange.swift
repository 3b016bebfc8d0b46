import Packets

/// A HAP-BLE accessory database that changed between two LE connections while the advertised
/// configuration number stayed the same (HAP: the accessory increments its configuration number
/// when an accessory, service or characteristic is added or removed, HomeKitADK HAP.h
/// `HAPAccessoryServerIncrementCN`; HAPBLEAccessoryServer+Advertising.c puts it in every regular
/// advertisement, and a controller that cached the database reads it again only when it moves).
///
/// Judged by the transport, where both connections read: a connection that discovers or reads
/// less than an earlier one is not a changed database.
public struct UnannouncedDatabaseChange: Sendable {
    /// The accessory's device ID, from its advertisement.
    public let deviceID: String
    /// The last of the earlier connections whose reading this one differs from.
    public let earlierConnection: ConnectionInfo
    /// The configuration number advertised before the earlier reading and still before this connection.
    public let configurationNumber: UInt8
    /// The last advertisement before this connection, which carried that number.
    public let advertisementPacket: PacketInfo
    /// The ATT response of this connection that first showed a difference.
    public let packet: PacketInfo
    /// Every difference this connection's whole reading showed, in handle order.
    public let changes: [GATTDatabaseChange]

    public init(
        deviceID: String, earlierConnection: ConnectionInfo, configurationNumber: UInt8, advertisementPacket: PacketInfo,
        packet: PacketInfo, changes: [GATTDatabaseChange]
    ) {
        self.deviceID = deviceID
        self.earlierConnection = earlierConnection
        self.configurationNumber = configurationNumber
        self.advertisementPacket = advertisementPacket
        self.packet = packet
        self.changes = changes
    }
}
