import Bluetooth
import HAPEvents
import HAPPDU
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
/// they found, wherever both read. Kept for at most `maximumAccessories` accessories; the CN
/// advertised last is read from `BLEAdvertisementTracker`, its one record.
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

    /// The readings merged under one CN, and the last connection that read.
    private typealias Readings = (database: GATTDatabaseReading, configurationNumber: UInt8, connection: ConnectionInfo)

    private var accessories: BoundedTable<BluetoothAddress, Readings?>

    init(maximumAccessories: Int) {
        accessories = BoundedTable(capacity: maximumAccessories)
    }

    /// The readings a connection opening now to `address` must agree with: those made under the
    /// CN of `latest`, the accessory's last regular advertisement (seen in `packet`).
    func earlierReading(
        of address: BluetoothAddress, latest: (advertisement: HAPBLEAdvertisement.Regular, packet: PacketInfo)?
    ) -> EarlierReading? {
        guard let latest, let readings = accessories[address] ?? nil,
              readings.configurationNumber == latest.advertisement.configurationNumber else { return nil }
        return EarlierReading(
            deviceID: latest.advertisement.deviceIDText, connection: readings.connection, configurationNumber: readings.configurationNumber,
            advertisementPacket: latest.packet, reading: readings.database)
    }

    /// A connection opened under `configurationNumber` closed, having read `reading`: merged into
    /// the readings of the same CN, or starting anew under another.
    mutating func closed(_ connection: ConnectionInfo, to address: BluetoothAddress, reading: GATTDatabaseReading, openedUnder configurationNumber: UInt8) {
        guard !reading.isEmpty else { return }
        accessories.update(address, initial: nil) { readings in
            if var earlier = readings, earlier.configurationNumber == configurationNumber {
                earlier.database.merge(reading)
                earlier.connection = connection
                readings = earlier
            } else {
                readings = (reading, configurationNumber, connection)
            }
        }
    }
}
