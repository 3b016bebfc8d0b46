import HAPCore
import HAPCrypto
import HAPEvents
import HAPPDU
import WireParsing

/// Opens HAP-BLE encrypted notification advertisements with the key log's broadcast keys.
///
/// The GSN the accessory sealed a notification under is its nonce and travels inside it, so it
/// is searched for as aiohomekit does (controller/ble/pairing.py `_async_notification`): the
/// accessory's last known GSN + 1, that GSN, then on up to `gsnSearch` numbers; a candidate
/// counts only when the plaintext's GSN is the one tried. The last known GSN is the latest the
/// accessory advertised or broadcast (HomeKitADK: the GSN starts at 1 and wraps from 65535 to 1).
struct BroadcastNotificationOpener {
    private let keys: [(deviceID: String, key: ChaCha20Poly1305.Key)]
    private let gsnSearch: Int
    /// The last known GSN of each accessory, by device ID.
    private var lastGSN: BoundedTable<String, UInt16>

    init(keys: [KeyLog.BroadcastKey], gsnSearch: Int, maximumAccessories: Int) {
        self.keys = keys.compactMap { entry in (try? ChaCha20Poly1305.Key(entry.key)).map { (entry.deviceID.uppercased(), $0) } }
        self.gsnSearch = gsnSearch
        lastGSN = BoundedTable(capacity: maximumAccessories)
    }

    /// Remembers the GSN an accessory advertised.
    mutating func advertised(globalStateNumber: UInt16, deviceID: String) {
        lastGSN.set(deviceID.uppercased(), globalStateNumber)
    }

    mutating func open(_ notification: HAPBLEAdvertisement.EncryptedNotification) -> BLEBroadcastDecryption {
        guard !keys.isEmpty else { return .noKey }
        // The advertising ID is the device ID unless the controller set another (HomeKitADK
        // HAPBLEAccessoryServer+Broadcast.c): that accessory's keys are tried first.
        let advertisingID = notification.advertisingID.map { Hex.encode(CollectionOfOne($0)).uppercased() }.joined(separator: ":")
        let ordered = keys.filter { $0.deviceID == advertisingID } + keys.filter { $0.deviceID != advertisingID }
        var candidatesTried = 0
        for (deviceID, key) in ordered {
            let candidates = Self.candidates(after: lastGSN[deviceID], count: gsnSearch)
            candidatesTried = max(candidatesTried, candidates.count)
            for gsn in candidates {
                guard let plaintext = ChaCha20Poly1305.open(
                    notification.encryptedPayload, truncatedTag: notification.truncatedTag, key: key,
                    nonce: ChaCha20Poly1305.Nonce(counter: UInt64(gsn)), authenticating: notification.advertisingID),
                    plaintext.count == 12, UInt16(plaintext[0]) | UInt16(plaintext[1]) << 8 == gsn else { continue }
                advertised(globalStateNumber: gsn, deviceID: deviceID)
                return .opened(deviceID: deviceID, globalStateNumber: gsn, iid: UInt16(plaintext[2]) | UInt16(plaintext[3]) << 8,
                               value: Array(plaintext[4...]))
            }
        }
        return .notOpened(keysTried: keys.count, globalStateNumbersTried: candidatesTried)
    }

    /// The GSNs to try, most likely first: after `last`, `last` itself, then onwards; from 1
    /// when no GSN of the accessory is known.
    static func candidates(after last: UInt16?, count: Int) -> [UInt16] {
        func next(_ gsn: UInt16) -> UInt16 { gsn == .max ? 1 : gsn + 1 }
        var candidates: [UInt16] = []
        var gsn = last.map(next) ?? 1
        while candidates.count < count {
            candidates.append(gsn)
            if let last, candidates.count == 1, count > 1 { candidates.append(last) }
            gsn = next(gsn)
        }
        return candidates
    }
}
