import Bluetooth
import HAPPDU

/// What HomeKit advertisements were last seen, so that only new data becomes an event: the
/// latest regular advertisement of each accessory (by device ID) and the latest encrypted
/// notification of each advertiser, for at most `maximumAdvertisers` of each.
struct BLEAdvertisementTracker {
    let maximumAdvertisers: Int
    private var regular: [[UInt8]: HAPBLEAdvertisement.Regular] = [:]
    private var regularOrder: [[UInt8]] = []
    private var encrypted: [BluetoothAddress: HAPBLEAdvertisement.EncryptedNotification] = [:]
    private var encryptedOrder: [BluetoothAddress] = []
    /// Advertisers forgotten to stay within the bound.
    private(set) var forgotten = 0

    init(maximumAdvertisers: Int) {
        self.maximumAdvertisers = maximumAdvertisers
    }

    enum Sighting: Equatable {
        /// The same data as last time.
        case repeated
        /// New data; for a regular advertisement, the accessory's previous one.
        case new(previous: HAPBLEAdvertisement.Regular?)
    }

    mutating func observe(_ advertisement: HAPBLEAdvertisement, from advertiser: BluetoothAddress) -> Sighting {
        switch advertisement {
        case .regular(let current):
            let previous = regular[current.deviceID]
            if previous == current { return .repeated }
            if previous == nil { Self.admit(current.deviceID, into: &regularOrder, of: &regular, limit: maximumAdvertisers, forgotten: &forgotten) }
            regular[current.deviceID] = current
            return .new(previous: previous)
        case .encryptedNotification(let current):
            let previous = encrypted[advertiser]
            if previous == current { return .repeated }
            if previous == nil { Self.admit(advertiser, into: &encryptedOrder, of: &encrypted, limit: maximumAdvertisers, forgotten: &forgotten) }
            encrypted[advertiser] = current
            return .new(previous: nil)
        }
    }

    /// Makes room for a new key, forgetting the oldest when the bound is reached.
    private static func admit<Key: Hashable, Value>(
        _ key: Key, into order: inout [Key], of table: inout [Key: Value], limit: Int, forgotten: inout Int
    ) {
        if order.count >= limit, !order.isEmpty {
            table.removeValue(forKey: order.removeFirst())
            forgotten += 1
        }
        order.append(key)
    }
}
