import Bluetooth
import HAPEvents
import Packets

/// What a controller watching an accessory's advertisements can know between two LE connections
/// to it: the Global State Number advertised before each connection and after it closed, and the
/// values of its disconnected-notifying characteristics last seen on the connection.
///
/// HAP disconnected events: the accessory increments its GSN on the first change of such a
/// characteristic in each connected or disconnected period (HomeKitADK
/// HAPBLEAccessoryServer+Advertising.c: `didIncrement` is reset on connect and on disconnect; the
/// GSN wraps from 65535 to 1), and a controller reconnects when the advertised GSN moves
/// (aiohomekit 4.0.1 re-reads the characteristics it follows). So when the GSN advertised after a
/// connection closed is still the one advertised before it opened, no such characteristic changed
/// over that connection and the time after it: the values seen on it still hold when the next
/// connection opens. Kept for at most `maximumAccessories` accessories; the GSN advertised last
/// is read from `BLEAdvertisementTracker`, its one record.
struct GlobalStateNumberWatch {
    /// The values a new connection may judge its first reads against.
    struct StandingValues {
        let earlierConnection: ConnectionInfo
        let globalStateNumber: UInt16
        /// The last advertisement between the two connections.
        let advertisementPacket: PacketInfo
        let values: [UInt16: [UInt8]]
    }

    private struct Accessory {
        /// The GSN advertised before the last connection opened.
        var gsnBeforeLastConnection: UInt16?
        var lastConnection: ConnectionInfo?
        var values: [UInt16: [UInt8]] = [:]
        /// The packet in which a connection to it last closed: an advertisement after it was seen
        /// while none was open.
        var lastClose: Int?
        var openConnections = 0
    }

    private var accessories: BoundedTable<BluetoothAddress, Accessory>

    init(maximumAccessories: Int) {
        accessories = BoundedTable(capacity: maximumAccessories)
    }

    /// A connection to `address` opened when the accessory last advertised `latest` (a regular
    /// advertisement's GSN, or an opened encrypted notification's): the values of the previous
    /// connection when that GSN, advertised since it closed, is the one advertised before it opened.
    mutating func opened(
        _ connection: ConnectionInfo, to address: BluetoothAddress, latest: (globalStateNumber: UInt16, packet: PacketInfo)?
    ) -> StandingValues? {
        var standing: StandingValues?
        update(address) { accessory in
            if accessory.openConnections == 0, let latest, let close = accessory.lastClose, latest.packet.number > close,
               let earlier = accessory.lastConnection, let before = accessory.gsnBeforeLastConnection, before == latest.globalStateNumber,
               !accessory.values.isEmpty {
                standing = StandingValues(earlierConnection: earlier, globalStateNumber: before, advertisementPacket: latest.packet,
                                          values: accessory.values)
            }
            accessory.gsnBeforeLastConnection = accessory.openConnections == 0 ? latest?.globalStateNumber : nil
            accessory.lastConnection = connection
            accessory.values = [:]
            accessory.lastClose = nil
            accessory.openConnections += 1
        }
        return standing
    }

    /// The connection closed in `packet` (nil: the capture ended), having seen `values` of the
    /// accessory's disconnected-notifying characteristics.
    mutating func closed(_ connection: ConnectionInfo, to address: BluetoothAddress, values: [UInt16: [UInt8]], in packet: PacketInfo?) {
        guard accessories[address] != nil else { return }
        update(address) { accessory in
            accessory.openConnections = max(0, accessory.openConnections - 1)
            if accessory.lastConnection?.id == connection.id { accessory.values = values }
            accessory.lastClose = packet?.number ?? .max
        }
    }

    private mutating func update(_ address: BluetoothAddress, _ change: (inout Accessory) -> Void) {
        accessories.update(address, initial: Accessory(), change)
    }
}
