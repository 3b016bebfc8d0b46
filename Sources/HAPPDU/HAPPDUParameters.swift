import TLV8
import WireParsing

/// The parameters of a read, write or configuration body: the TLV items every HAP-BLE
/// procedure shares (HAP: HAP-Characteristic-Write-Request, Timed-Write, Read-Response;
/// HomeKitADK `HAPBLEPDU+TLV.h`).
///
/// Pairing over HAP-BLE writes the pair-setup, pair-verify and pairings bodies into the
/// pairing characteristics as HAP-Param-Value, so `value` is then a TLV8 pairing message for
/// the `TLV8` module; its FragmentData (0x0C) and FragmentLast (0x0D) items are pairing-level
/// types the `TLV8` module already names.
public struct HAPPDUParameters: Hashable, Sendable {
    /// HAP-Param-Value: the characteristic's value, in its format.
    public var value: [UInt8]?
    public var additionalAuthorizationData: [UInt8]?
    /// HAP-Param-Origin: 0 local, 1 remote (a write relayed by a home hub).
    public var origin: UInt8?
    /// HAP-Param-TTL of a timed write, in units of 100 ms.
    public var ttl: UInt8?
    /// HAP-Param-Return-Response: the controller wants the write's response value.
    public var returnResponse: Bool?
    /// Items of other types, kept as sent.
    public var otherItems: [TLV8Item]

    public init(
        value: [UInt8]? = nil, additionalAuthorizationData: [UInt8]? = nil, origin: UInt8? = nil, ttl: UInt8? = nil,
        returnResponse: Bool? = nil, otherItems: [TLV8Item] = []
    ) {
        self.value = value
        self.additionalAuthorizationData = additionalAuthorizationData
        self.origin = origin
        self.ttl = ttl
        self.returnResponse = returnResponse
        self.otherItems = otherItems
    }

    /// Decodes a PDU body (layer `hapPDU`, TLV errors in `tlv8`). One-byte fields of another
    /// size are malformed.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        self.init()
        for item in try HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset) {
            switch item.type {
            case HAPPDUParameterType.value:
                value = item.value
            case HAPPDUParameterType.additionalAuthorizationData:
                additionalAuthorizationData = item.value
            case HAPPDUParameterType.origin:
                origin = try Self.byte(item, "HAP-Param-Origin")
            case HAPPDUParameterType.ttl:
                ttl = try Self.byte(item, "HAP-Param-TTL")
            case HAPPDUParameterType.returnResponse:
                returnResponse = try Self.byte(item, "HAP-Param-Return-Response") != 0
            default:
                otherItems.append(item)
            }
        }
    }

    private static func byte(_ item: TLV8Item, _ what: String) throws(DecodeError) -> UInt8 {
        guard item.value.count == 1 else { throw HAPPDUBody.malformed(item, "a 1-byte \(what), found \(item.value.count) bytes") }
        return item.value[0]
    }
}
