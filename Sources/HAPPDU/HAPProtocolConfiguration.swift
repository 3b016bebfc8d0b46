import TLV8
import WireParsing

/// The body of a HAP-Protocol-Configuration request (HAP R14 Table 7-32 Protocol Configuration
/// Request Types, as HomeKitADK HAPBLEProtocol+Configuration.c names them): a controller asks the
/// accessory to generate a new broadcast encryption key, for all its parameters, or sets the
/// advertising identifier of its encrypted notifications.
public struct HAPProtocolConfigurationRequest: Hashable, Sendable {
    /// Generate-Broadcast-Encryption-Key (0x01, empty).
    public var generatesBroadcastKey: Bool
    /// Get-All-Params (0x02, empty): the response then carries the parameters.
    public var getsAllParameters: Bool
    /// Set-Accessory-Advertising-Identifier (0x03, 6 bytes).
    public var advertisingIdentifier: [UInt8]?

    public init(generatesBroadcastKey: Bool = false, getsAllParameters: Bool = false, advertisingIdentifier: [UInt8]? = nil) {
        self.generatesBroadcastKey = generatesBroadcastKey
        self.getsAllParameters = getsAllParameters
        self.advertisingIdentifier = advertisingIdentifier
    }

    static let generateBroadcastEncryptionKey = TLV8Type(0x01)
    static let getAllParameters = TLV8Type(0x02)
    static let setAdvertisingIdentifier = TLV8Type(0x03)

    /// Decodes a request body (layer `hapPDU`, TLV errors in `tlv8`). HomeKitADK refuses a
    /// Generate or Get-All item with a value and an advertising identifier of another length
    /// (kHAPError_InvalidData): they are malformed here; items of other types are passed over.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        self.init()
        for item in try HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset) {
            switch item.type {
            case Self.generateBroadcastEncryptionKey:
                guard item.value.isEmpty else { throw HAPPDUBody.malformed(item, "an empty Generate-Broadcast-Encryption-Key, found \(item.value.count) bytes") }
                generatesBroadcastKey = true
            case Self.getAllParameters:
                guard item.value.isEmpty else { throw HAPPDUBody.malformed(item, "an empty Get-All-Params, found \(item.value.count) bytes") }
                getsAllParameters = true
            case Self.setAdvertisingIdentifier:
                guard item.value.count == HAPProtocolConfigurationResponse.advertisingIdentifierLength else {
                    throw HAPPDUBody.malformed(item, "a 6-byte Set-Accessory-Advertising-Identifier, found \(item.value.count) bytes")
                }
                advertisingIdentifier = item.value
            default:
                break
            }
        }
    }
}

/// The body of a HAP-Protocol-Configuration response to Get-All-Params (HAP R14 Table 7-34
/// Protocol Configuration Parameter Types; HomeKitADK HAPBLEProtocolGetConfigurationResponse):
/// the accessory's current GSN, configuration number, advertising identifier and, while it holds
/// a valid one, its broadcast encryption key. The raw TLVs, with no Value wrapper.
///
/// The key itself is not kept: it is a secret, and the key log already gives it
/// (`BROADCAST_KEY`); only whether the accessory sent one is.
public struct HAPProtocolConfigurationResponse: Hashable, Sendable {
    /// HAP-Param-Current-State-Number (0x01, uint16 LE): the GSN.
    public var currentStateNumber: UInt16?
    /// HAP-Param-Current-Config-Number (0x02, 1 byte: HomeKitADK sends (c# − 1) mod 255 + 1).
    public var currentConfigurationNumber: UInt8?
    /// HAP-Param-Accessory-Advertising-Identifier (0x03, 6 bytes).
    public var advertisingIdentifier: [UInt8]?
    /// Whether HAP-Param-Broadcast-Encryption-Key (0x04, 32 bytes) was sent: HomeKitADK sends it
    /// only while the key has not expired.
    public var carriesBroadcastKey: Bool

    public init(
        currentStateNumber: UInt16? = nil, currentConfigurationNumber: UInt8? = nil, advertisingIdentifier: [UInt8]? = nil,
        carriesBroadcastKey: Bool = false
    ) {
        self.currentStateNumber = currentStateNumber
        self.currentConfigurationNumber = currentConfigurationNumber
        self.advertisingIdentifier = advertisingIdentifier
        self.carriesBroadcastKey = carriesBroadcastKey
    }

    static let currentStateNumberType = TLV8Type(0x01)
    static let currentConfigurationNumberType = TLV8Type(0x02)
    static let advertisingIdentifierType = TLV8Type(0x03)
    static let broadcastKeyType = TLV8Type(0x04)
    static let advertisingIdentifierLength = 6
    static let broadcastKeyLength = 32

    /// Decodes a response body (layer `hapPDU`, TLV errors in `tlv8`); fixed-size fields of the
    /// wrong size are malformed, items of other types are passed over.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        self.init()
        for item in try HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset) {
            switch item.type {
            case Self.currentStateNumberType:
                guard item.value.count == 2 else { throw HAPPDUBody.malformed(item, "a 2-byte HAP-Param-Current-State-Number, found \(item.value.count) bytes") }
                currentStateNumber = UInt16(item.value[0]) | UInt16(item.value[1]) << 8
            case Self.currentConfigurationNumberType:
                guard item.value.count == 1 else { throw HAPPDUBody.malformed(item, "a 1-byte HAP-Param-Current-Config-Number, found \(item.value.count) bytes") }
                currentConfigurationNumber = item.value[0]
            case Self.advertisingIdentifierType:
                guard item.value.count == Self.advertisingIdentifierLength else {
                    throw HAPPDUBody.malformed(item, "a 6-byte HAP-Param-Accessory-Advertising-Identifier, found \(item.value.count) bytes")
                }
                advertisingIdentifier = item.value
            case Self.broadcastKeyType:
                guard item.value.count == Self.broadcastKeyLength else {
                    throw HAPPDUBody.malformed(item, "a 32-byte HAP-Param-Broadcast-Encryption-Key, found \(item.value.count) bytes")
                }
                carriesBroadcastKey = true
            default:
                break
            }
        }
    }
}
