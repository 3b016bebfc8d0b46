import Bluetooth
import HAPPDU
import Packets

/// What HomeKit advertisements were last seen, so that only new data becomes an event: the
/// latest regular advertisement of each accessory (by device ID) and the latest encrypted
/// notification of each advertiser, for at most `maximumAdvertisers` of each.
///
/// It is also the one record of what each advertiser advertised last, repeated data included,
/// which the watches between LE connections read (`GlobalStateNumberWatch`,
/// `ConfigurationNumberWatch`): its latest regular advertisement and when, and the GSN of an
/// encrypted notification opened since.
struct BLEAdvertisementTracker {
    let maximumAdvertisers: Int
    private var regular: BoundedTable<[UInt8], HAPBLEAdvertisement.Regular>
    private var encrypted: BoundedTable<BluetoothAddress, HAPBLEAdvertisement.EncryptedNotification>
    private var latest: BoundedTable<BluetoothAddress, Latest>
    /// Advertisers forgotten to stay within the bound.
    var forgotten: Int { regular.forgotten + encrypted.forgotten }

    /// What an advertiser advertised last.
    private struct Latest {
        /// The device ID of its latest regular advertisement (kept in `regular`), and when.
        var regular: (deviceID: [UInt8], packet: PacketInfo)?
        /// An encrypted notification opened after it: its GSN, and when.
        var openedBroadcast: (globalStateNumber: UInt16, packet: PacketInfo)?
    }

    init(maximumAdvertisers: Int) {
        self.maximumAdvertisers = maximumAdvertisers
        regular = BoundedTable(capacity: maximumAdvertisers)
        encrypted = BoundedTable(capacity: maximumAdvertisers)
        latest = BoundedTable(capacity: maximumAdvertisers)
    }

    enum Sighting: Equatable {
        /// The same data as last time.
        case repeated
        /// New data; for a regular advertisement, the accessory's previous one.
        case new(previous: HAPBLEAdvertisement.Regular?)
    }

    mutating func observe(_ advertisement: HAPBLEAdvertisement, from advertiser: BluetoothAddress, packet: PacketInfo) -> Sighting {
        switch advertisement {
        case .regular(let current):
            // Every sighting counts, repeated or not: it shows what stood between connections.
            latest.update(advertiser, initial: Latest()) { $0 = Latest(regular: (current.deviceID, packet)) }
            let previous = regular[current.deviceID]
            if previous == current { return .repeated }
            regular.set(current.deviceID, current)
            return .new(previous: previous)
        case .encryptedNotification(let current):
            let previous = encrypted[advertiser]
            if previous == current { return .repeated }
            encrypted.set(advertiser, current)
            return .new(previous: nil)
        }
    }

    /// An encrypted notification from `advertiser` opened under `globalStateNumber`: the GSN
    /// the accessory now stands at.
    mutating func opened(globalStateNumber: UInt16, from advertiser: BluetoothAddress, packet: PacketInfo) {
        latest.update(advertiser, initial: Latest()) { $0.openedBroadcast = (globalStateNumber, packet) }
    }

    /// The latest regular advertisement from `advertiser`, and the packet of its last sighting.
    func latestRegular(from advertiser: BluetoothAddress) -> (advertisement: HAPBLEAdvertisement.Regular, packet: PacketInfo)? {
        guard let sighting = latest[advertiser]?.regular, let advertisement = regular[sighting.deviceID] else { return nil }
        return (advertisement, sighting.packet)
    }

    /// The GSN `advertiser` stands at: that of an encrypted notification opened since its latest
    /// regular advertisement, else that advertisement's; and the packet that showed it.
    func latestGlobalStateNumber(from advertiser: BluetoothAddress) -> (globalStateNumber: UInt16, packet: PacketInfo)? {
        if let broadcast = latest[advertiser]?.openedBroadcast { return broadcast }
        return latestRegular(from: advertiser).map { ($0.advertisement.globalStateNumber, $0.packet) }
    }
}
