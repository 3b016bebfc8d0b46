/// What came of opening a HAP-BLE encrypted notification advertisement with the key log's
/// broadcast keys (HAP: Broadcast Encryption Key Generation; HomeKitADK
/// HAPBLEAccessoryServer+Advertising.c: GSN (2), IID (2) and value (8) sealed under the
/// broadcast key, nonce the GSN, the advertising ID as associated data, 4 tag bytes sent).
public enum BLEBroadcastDecryption: Sendable, Hashable {
    /// Opened: the accessory (the device id of the key that opened it), the GSN the accessory
    /// sealed it under (the nonce, and the plaintext's first field), the characteristic's
    /// instance ID and the 8 value bytes as sent (the value, zero-padded).
    case opened(deviceID: String, globalStateNumber: UInt16, iid: UInt16, value: [UInt8])
    /// The key log holds no broadcast key.
    case noKey
    /// No broadcast key opened it under any GSN tried: the key log lacks the key in use, or the
    /// accessory sealed it wrongly.
    case notOpened(keysTried: Int, globalStateNumbersTried: Int)
}
