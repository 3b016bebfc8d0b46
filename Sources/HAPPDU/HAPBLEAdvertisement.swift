import WireParsing

/// The HomeKit part of an Apple manufacturer-data AD structure (company 0x004C), the bytes
/// after the company identifier (HAP: HAP BLE Regular Advertisement Format and Encrypted
/// Notification Advertisement Format; HomeKitADK `HAPBLEAccessoryServer+Advertising.c`;
/// aiohomekit `controller/ble/manufacturer_data.py`):
///
/// | byte | regular (type 0x06) | encrypted notification (type 0x11) |
/// |---|---|---|
/// | 0 | type | type |
/// | 1 | subtype (3 bits) and length (5 bits) of what follows: 0x2D, or 0x31 with a setup hash | 0x36 |
/// | 2… | status flags (1), device ID (6), category (2), GSN (2), configuration number (1), compatible version (1), [setup hash (4)] | advertising ID (6), encrypted GSN, IID and value (12), tag (4) |
///
/// Other types (iBeacon, AirPlay, …) are not HomeKit's and throw `unsupported`.
public enum HAPBLEAdvertisement: Hashable, Sendable {
    case regular(Regular)
    case encryptedNotification(EncryptedNotification)

    public static let appleCompanyID: UInt16 = 0x004C
    public static let regularType: UInt8 = 0x06
    public static let encryptedNotificationType: UInt8 = 0x11

    public struct Regular: Hashable, Sendable {
        /// The 3-bit subtype (1 in every HAP revision).
        public var subtype: UInt8
        /// Bit 0: the accessory has not been paired (HAP: status flags; HomeKitADK writes 1 << 0 unpaired).
        public var statusFlags: UInt8
        /// The device ID as sent, the same six bytes the `id` TXT key writes as `AA:BB:…`.
        public var deviceID: [UInt8]
        /// The accessory category identifier (ACID).
        public var category: UInt16
        /// The global state number, incremented on a characteristic change while disconnected.
        public var globalStateNumber: UInt16
        /// The configuration number, modulo 255 with 0 skipped (HomeKitADK `(cn − 1) % 255 + 1`).
        public var configurationNumber: UInt8
        /// The compatible version (2 since HAP R10).
        public var compatibleVersion: UInt8
        /// The 4-byte setup hash, when the accessory has a setup ID.
        public var setupHash: [UInt8]?

        public var isPaired: Bool { statusFlags & 0x01 == 0 }
        /// `AA:BB:CC:DD:EE:FF`, as HAP writes device IDs.
        public var deviceIDText: String { deviceID.map { Hex.encode(CollectionOfOne($0)).uppercased() }.joined(separator: ":") }
    }

    public struct EncryptedNotification: Hashable, Sendable {
        public var subtype: UInt8
        /// The advertising identifier the controller set through Protocol Configuration.
        public var advertisingID: [UInt8]
        /// GSN (2), IID (2) and value (8), encrypted with the broadcast key (HAP: Broadcast
        /// Encryption Key Generation), the advertising ID as associated data.
        public var encryptedPayload: [UInt8]
        /// The first 4 bytes of the ChaCha20-Poly1305 tag.
        public var truncatedTag: [UInt8]

        public init(subtype: UInt8, advertisingID: [UInt8], encryptedPayload: [UInt8], truncatedTag: [UInt8]) {
            self.subtype = subtype
            self.advertisingID = advertisingID
            self.encryptedPayload = encryptedPayload
            self.truncatedTag = truncatedTag
        }
    }

    /// Reads the manufacturer data after the company identifier.
    public init(manufacturerData cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let type = try cursor.readUInt8("the Apple advertisement type")
        let subtypeAndLength = try cursor.readUInt8("the subtype and length of a HomeKit advertisement")
        let subtype = subtypeAndLength >> 5
        let length = Int(subtypeAndLength & 0x1F)
        var body = try cursor.readCursor(count: length, "the \(length) bytes the HomeKit advertisement announces")
        switch type {
        case Self.regularType:
            guard length == 13 || length == 17 else {
                throw cursor.malformed("a regular HomeKit advertisement of 13 bytes, or 17 with a setup hash, found \(length)", at: start + 1)
            }
            self = .regular(Regular(
                subtype: subtype, statusFlags: try body.readUInt8(), deviceID: try body.readBytes(count: 6),
                category: try body.readUInt16LittleEndian(), globalStateNumber: try body.readUInt16LittleEndian(),
                configurationNumber: try body.readUInt8(), compatibleVersion: try body.readUInt8(),
                setupHash: length == 17 ? try body.readBytes(count: 4) : nil))
        case Self.encryptedNotificationType:
            guard length == 22 else {
                throw cursor.malformed("an encrypted notification advertisement of 22 bytes, found \(length)", at: start + 1)
            }
            self = .encryptedNotification(EncryptedNotification(
                subtype: subtype, advertisingID: try body.readBytes(count: 6), encryptedPayload: try body.readBytes(count: 12),
                truncatedTag: try body.readBytes(count: 4)))
        default:
            throw DecodeError(
                .unsupported, layer: cursor.layer, offset: cursor.baseOffset + start,
                expected: "a HomeKit advertisement (type 0x06 or 0x11), found Apple type 0x\(String(type, radix: 16))")
        }
    }
}
