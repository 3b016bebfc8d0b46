import Bluetooth
import HAPPDU
import WireParsing

/// A HomeKit advertisement of HAP over Bluetooth LE, from an LE (Extended) Advertising Report: a
/// regular advertisement (status flags, device ID, category, GSN, configuration number, setup
/// hash) or an encrypted notification, with the accessory's previous regular advertisement so
/// that what changed is known (HomeKitADK HAPBLEAccessoryServer+Advertising.c).
///
/// An advertiser repeats the same data every few tens of milliseconds: only new data is an event,
/// so each change over time is one event.
public struct BLEAdvertisementEvent: Sendable {
    /// The advertiser's device address, as the report gives it.
    public let advertiser: BluetoothAddress
    public let advertisement: HAPBLEAdvertisement
    /// For a regular advertisement: the same accessory's (device ID's) previous one; nil the first time.
    public let previous: HAPBLEAdvertisement.Regular?
    /// The advertised setup hash judged against the setup ID the user gave; nil when either is missing.
    public let setupHash: SetupHashCheck?
    /// For an encrypted notification: whether the key log's broadcast keys opened it.
    public let broadcast: BLEBroadcastDecryption?
    /// For an opened encrypted notification: how long the key that opened it had been in use.
    public let broadcastKeyLifetime: BLEBroadcastKeyLifetime?

    public init(
        advertiser: BluetoothAddress, advertisement: HAPBLEAdvertisement, previous: HAPBLEAdvertisement.Regular? = nil,
        setupHash: SetupHashCheck? = nil, broadcast: BLEBroadcastDecryption? = nil, broadcastKeyLifetime: BLEBroadcastKeyLifetime? = nil
    ) {
        self.advertiser = advertiser
        self.advertisement = advertisement
        self.previous = previous
        self.setupHash = setupHash
        self.broadcast = broadcast
        self.broadcastKeyLifetime = broadcastKeyLifetime
    }

    public var regular: HAPBLEAdvertisement.Regular? {
        if case .regular(let regular) = advertisement { regular } else { nil }
    }

    public var isFirstSighting: Bool { regular != nil && previous == nil }

    /// The fields of a regular advertisement that differ from the accessory's previous one.
    public var changedFields: [Field] {
        guard let regular, let previous else { return [] }
        return Field.allCases.filter { regular.value(of: $0) != previous.value(of: $0) }
    }

    /// A field of the regular advertisement, by the name of its Bonjour TXT counterpart (the GSN
    /// has none: `gsn`).
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case statusFlags = "sf", category = "ci", globalStateNumber = "gsn"
        case configurationNumber = "c#", compatibleVersion = "cv", setupHash = "sh"
    }
}

extension HAPBLEAdvertisement.Regular {
    /// The field's value as text: numbers in decimal, the setup hash in hex.
    public func value(of field: BLEAdvertisementEvent.Field) -> String? {
        switch field {
        case .statusFlags: "\(statusFlags)"
        case .category: "\(category)"
        case .globalStateNumber: "\(globalStateNumber)"
        case .configurationNumber: "\(configurationNumber)"
        case .compatibleVersion: "\(compatibleVersion)"
        case .setupHash: setupHash.map { Hex.encode($0) }
        }
    }
}
