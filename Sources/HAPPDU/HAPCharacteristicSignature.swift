import HAPCatalog
import TLV8
import WireParsing

/// What a characteristic says about itself: the body of a HAP-Characteristic-Signature-Read
/// response over HAP-BLE, or one characteristic of the CoAP database read (HAP: HAP-
/// Characteristic-Signature-Read-Response; aiohomekit `Pdu09Characteristic`).
///
/// Every field is optional, as the two carriers send different subsets: the BLE response names
/// the service (type and IID) but not the characteristic's IID, the database the other way
/// round. Fixed-size fields of the wrong size are malformed.
public struct HAPCharacteristicSignature: Hashable, Sendable {
    public var type: HAPUUID?
    public var instanceID: UInt64?
    public var serviceType: HAPUUID?
    public var serviceInstanceID: UInt64?
    public var properties: HAPCharacteristicProperties?
    public var userDescription: String?
    public var presentationFormat: GATTPresentationFormat?
    /// Minimum and maximum, each in the characteristic's format (little-endian).
    public var validRange: [UInt8]?
    /// In the characteristic's format.
    public var stepValue: [UInt8]?
    /// The allowed values of a uint8 characteristic.
    public var validValues: [UInt8]?
    /// Inclusive ranges of allowed uint8 values.
    public var validValuesRanges: [ClosedRange<UInt8>]?
    /// The value, when the database read carries one (HAP-Param-Value).
    public var value: [UInt8]?
    /// Items of other types, kept as sent.
    public var otherItems: [TLV8Item]

    public init() {
        otherItems = []
    }

    /// Decodes a signature body (layer `hapPDU`, TLV errors in `tlv8`).
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        try self.init(items: HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset))
    }

    init(items: some Sequence<TLV8Item>) throws(DecodeError) {
        self.init()
        for item in items {
            switch item.type {
            case HAPPDUParameterType.characteristicType:
                type = try HAPPDUBody.uuid(item, "characteristic type")
            case HAPPDUParameterType.characteristicInstanceID:
                instanceID = try HAPPDUBody.integer(item, maximumByteCount: 8, "a characteristic instance ID")
            case HAPPDUParameterType.serviceType:
                serviceType = try HAPPDUBody.uuid(item, "service type")
            case HAPPDUParameterType.serviceInstanceID:
                serviceInstanceID = try HAPPDUBody.integer(item, maximumByteCount: 8, "a service instance ID")
            case HAPPDUParameterType.characteristicProperties:
                properties = HAPCharacteristicProperties(rawValue: UInt16(try HAPPDUBody.integer(item, maximumByteCount: 2, "characteristic properties")))
            case HAPPDUParameterType.userDescription:
                userDescription = String(decoding: item.value, as: UTF8.self)
            case HAPPDUParameterType.presentationFormat:
                guard item.value.count == GATTPresentationFormat.length else {
                    throw HAPPDUBody.malformed(item, "a 7-byte presentation format, found \(item.value.count) bytes")
                }
                var formatCursor = ByteCursor(item.value.span.bytes, layer: .hapPDU, baseOffset: item.offset + 2)
                presentationFormat = try GATTPresentationFormat(parsing: &formatCursor)
            case HAPPDUParameterType.validRange:
                validRange = item.value
            case HAPPDUParameterType.stepValue:
                stepValue = item.value
            case HAPPDUParameterType.validValues:
                validValues = item.value
            case HAPPDUParameterType.validValuesRange:
                guard item.value.count % 2 == 0 else {
                    throw HAPPDUBody.malformed(item, "pairs of bytes in valid-values ranges, found \(item.value.count) bytes")
                }
                var ranges: [ClosedRange<UInt8>] = []
                for index in stride(from: 0, to: item.value.count, by: 2) {
                    let (low, high) = (item.value[index], item.value[index + 1])
                    guard low <= high else { throw HAPPDUBody.malformed(item, "a valid-values range whose start is not above its end") }
                    ranges.append(low ... high)
                }
                validValuesRanges = ranges
            case HAPPDUParameterType.value:
                value = item.value
            default:
                otherItems.append(item)
            }
        }
    }
}

/// The body of a HAP-Service-Signature-Read response: the service's properties and the IIDs
/// of the services it links to (HAP: HAP-Service-Signature-Read-Response).
public struct HAPServiceSignature: Hashable, Sendable {
    public var properties: HAPServiceProperties?
    public var linkedServices: [UInt16]
    public var otherItems: [TLV8Item]

    public init(properties: HAPServiceProperties? = nil, linkedServices: [UInt16] = [], otherItems: [TLV8Item] = []) {
        self.properties = properties
        self.linkedServices = linkedServices
        self.otherItems = otherItems
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        self.init()
        for item in try HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset) {
            switch item.type {
            case HAPPDUParameterType.serviceProperties:
                properties = HAPServiceProperties(rawValue: UInt16(try HAPPDUBody.integer(item, maximumByteCount: 2, "service properties")))
            case HAPPDUParameterType.linkedServices:
                linkedServices = try Self.instanceIDs(item)
            default:
                otherItems.append(item)
            }
        }
    }

    /// A list of 16-bit little-endian IIDs.
    static func instanceIDs(_ item: TLV8Item) throws(DecodeError) -> [UInt16] {
        guard item.value.count % 2 == 0 else {
            throw HAPPDUBody.malformed(item, "2-byte instance IDs of linked services, found \(item.value.count) bytes")
        }
        return stride(from: 0, to: item.value.count, by: 2).map { UInt16(item.value[$0]) | UInt16(item.value[$0 + 1]) << 8 }
    }
}
