import TLV8

/// The TLV types of HAP PDU bodies (HAP: Additional Parameter Types; HomeKitADK
/// `HAPBLEPDUTLVType`), and the container types of the CoAP database read (aiohomekit
/// `protocol/tlv.py`, `kTLVHAPParamUnknown_13` to `_1A`, and `controller/coap/structs.py`).
public enum HAPPDUParameterType {
    public static let value = TLV8Type(0x01)
    public static let additionalAuthorizationData = TLV8Type(0x02)
    public static let origin = TLV8Type(0x03)
    public static let characteristicType = TLV8Type(0x04)
    public static let characteristicInstanceID = TLV8Type(0x05)
    public static let serviceType = TLV8Type(0x06)
    public static let serviceInstanceID = TLV8Type(0x07)
    public static let ttl = TLV8Type(0x08)
    public static let returnResponse = TLV8Type(0x09)
    public static let characteristicProperties = TLV8Type(0x0A)
    public static let userDescription = TLV8Type(0x0B)
    public static let presentationFormat = TLV8Type(0x0C)
    public static let validRange = TLV8Type(0x0D)
    public static let stepValue = TLV8Type(0x0E)
    public static let serviceProperties = TLV8Type(0x0F)
    public static let linkedServices = TLV8Type(0x10)
    public static let validValues = TLV8Type(0x11)
    public static let validValuesRange = TLV8Type(0x12)
    /// CoAP database: one characteristic, inside a characteristic list entry.
    public static let databaseCharacteristic = TLV8Type(0x13)
    /// CoAP database: a service's characteristics, entries separated by `00 00`.
    public static let databaseCharacteristics = TLV8Type(0x14)
    /// CoAP database: one service, inside a service list entry.
    public static let databaseService = TLV8Type(0x15)
    /// CoAP database: an accessory's services, entries separated by `00 00`.
    public static let databaseServices = TLV8Type(0x16)
    /// CoAP database: the accessories, entries separated by `00 00`.
    public static let databaseAccessories = TLV8Type(0x18)
    /// CoAP database: one accessory, inside an accessory list entry.
    public static let databaseAccessory = TLV8Type(0x19)
    /// CoAP database: the accessory instance ID (aid).
    public static let databaseAccessoryInstanceID = TLV8Type(0x1A)
    /// The separator between list entries of the CoAP database: a zero-length item of type 0.
    public static let databaseSeparator = TLV8Type(0x00)

    /// The HAP name of a body type (`HAP-Param-Value`), nil for types HAP does not name.
    public static func name(of type: TLV8Type) -> String? {
        switch type.rawValue {
        case 0x01: "HAP-Param-Value"
        case 0x02: "HAP-Param-Additional-Authorization-Data"
        case 0x03: "HAP-Param-Origin"
        case 0x04: "HAP-Param-Characteristic-Type"
        case 0x05: "HAP-Param-Characteristic-Instance-ID"
        case 0x06: "HAP-Param-Service-Type"
        case 0x07: "HAP-Param-Service-Instance-ID"
        case 0x08: "HAP-Param-TTL"
        case 0x09: "HAP-Param-Return-Response"
        case 0x0A: "HAP-Param-HAP-Characteristic-Properties-Descriptor"
        case 0x0B: "HAP-Param-GATT-User-Description-Descriptor"
        case 0x0C: "HAP-Param-GATT-Presentation-Format-Descriptor"
        case 0x0D: "HAP-Param-GATT-Valid-Range"
        case 0x0E: "HAP-Param-HAP-Step-Value-Descriptor"
        case 0x0F: "HAP-Param-HAP-Service-Properties"
        case 0x10: "HAP-Param-HAP-Linked-Services"
        case 0x11: "HAP-Param-HAP-Valid-Values-Descriptor"
        case 0x12: "HAP-Param-HAP-Valid-Values-Range-Descriptor"
        default: nil
        }
    }
}
