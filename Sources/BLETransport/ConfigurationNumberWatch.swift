import Bluetooth
import HAPEvents
import Packets

/// What a controller watching an accessory's advertisements can know of its database between LE
/// connections: the configuration number (CN) advertised before each connection, and the GATT
/// database the connections read, merged for as long as the CN stays the same.
///
/// HAP: the accessory increments its CN whenever its attribute database changes, and advertises
/// it (HomeKitADK HAP.h `HAPAccessoryServerIncrementCN`, HAPAccessoryServer.c; the advertisement
/// carries `(cn − 1) % 255 + 1`, HAPBLEAccessoryServer+Advertising.c); a controller keeps
/// the database it read under a CN and reads it again only when the CN moves (aiohomekit 4.0.1
/// controller/ble/pairing.py reuses its cached accessories while the advertised `config_num` is
/// the cached one). So a connection opened under the CN of the earlier readings must find what
/// they found, wherever both read. Kept for at most `maximumAccessories` accessories.
struct ConfigurationNumberWatch {
    /// What a new connection judges its reading against.
    struct EarlierReading {
        let deviceID: String
        /// The last connection that read under this CN.
        let connection: ConnectionInfo
        let configurationNumber: UInt8
        /// The last advertisement before the new connection, which carried the CN.
        let advertisementPacket: PacketInfo
        let reading: GATTDatabaseReading
    }

    private struct Accessory {
        var latestAdvertisement: (configurationNumber: UInt8, deviceID: String, packet: PacketInfo)?
        /// The readings merged under one CN, and the last connection that read.
        var reading: (database: GATTDatabaseReading, configurationNumber: UInt8, connection: ConnectionInfo)?
    }

    private var accessories: BoundedTable<BluetoothAddress, Accessory>

    init(maximumAccessories: Int) {
        accessories = BoundedTable(capacity: maximumAccessories)
    }

    /// A regular advertisement from `advertiser` carried `configurationNumber`.
    mutating func advertised(_ configurationNumber: UInt8, deviceID: String, by advertiser: BluetoothAddress, packet: PacketInfo) {
        accessories.update(advertiser, initial: Accessory()) { $0.latestAdvertisement = (configurationNumber, deviceID, packet) }
    }

    /// The CN the accessory advertised last, which a connection opening now is under.
    func configurationNumber(of address: BluetoothAddress) -> UInt8? {
        accessories[address]?.latestAdvertisement?.configurationNumber
    }

    /// The readings a connection opening now to `address` must agree with: those made under the
    /// CN advertised last.
    func earlierReading(of address: BluetoothAddress) -> EarlierReading? {
        guard let accessory = accessories[address], let advertisement = accessory.latestAdvertisement, let reading = accessory.reading,
              reading.configurationNumber == advertisement.configurationNumber else { return nil }
        return EarlierReading(
            deviceID: advertisement.deviceID, connection: reading.connection, configurationNumber: reading.configurationNumber,
            advertisementPacket: advertisement.packet, reading: reading.database)
    }

    /// A connection opened under `configurationNumber` closed, having read `reading`: merged into
    /// the readings of the same CN, or starting anew under another.
    mutating func closed(_ connection: ConnectionInfo, to address: BluetoothAddress, reading: GATTDatabaseReading, openedUnder configurationNumber: UInt8) {
        guard !reading.isEmpty else { return }
        accessories.update(address, initial: Accessory()) { accessory in
            if var earlier = accessory.reading, earlier.configurationNumber == configurationNumber {
                earlier.database.merge(reading)
                earlier.connection = connection
                accessory.reading = earlier
            } else {
                accessory.reading = (reading, configurationNumber, connection)
            }
        }
    }
}
