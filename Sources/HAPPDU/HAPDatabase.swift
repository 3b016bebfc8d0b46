import HAPCatalog
import TLV8
import WireParsing

/// The attribute database as the CoAP database read (opcode 0x09) returns it: nested TLVs,
/// list entries separated by the zero-length item `00 00` (aiohomekit `controller/coap/
/// structs.py`, `Pdu09Database`; the layout is Apple's and unpublished):
///
/// ```
/// 18 → [ 19 → accessory ] (00 00 [ 19 → accessory ])*
/// accessory:  1A aid, 16 → [ 15 → service ] (00 00 …)*
/// service:    06 type, 07 iid, 14 → [ 13 → characteristic ] (00 00 …)*, 0F properties, 10 linked
/// characteristic: a characteristic signature (04 type, 05 iid, 0A properties, 0C format, …)
/// ```
///
/// Values above 255 bytes are TLV8-fragmented. A list entry without its container item, or
/// with anything else in it, is malformed.
public struct HAPDatabase: Hashable, Sendable {
    public var accessories: [Accessory]

    public struct Accessory: Hashable, Sendable {
        public var instanceID: UInt64
        public var services: [Service]

        public init(instanceID: UInt64, services: [Service]) {
            self.instanceID = instanceID
            self.services = services
        }
    }

    public struct Service: Hashable, Sendable {
        public var type: HAPUUID?
        public var instanceID: UInt64?
        public var characteristics: [HAPCharacteristicSignature]
        public var properties: HAPServiceProperties?
        public var linkedServices: [UInt16]

        public init(
            type: HAPUUID?, instanceID: UInt64?, characteristics: [HAPCharacteristicSignature], properties: HAPServiceProperties? = nil,
            linkedServices: [UInt16] = []
        ) {
            self.type = type
            self.instanceID = instanceID
            self.characteristics = characteristics
            self.properties = properties
            self.linkedServices = linkedServices
        }
    }

    public init(accessories: [Accessory]) {
        self.accessories = accessories
    }

    /// Decodes the body of a database-read response (layer `hapPDU`, TLV errors in `tlv8`).
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let offset = cursor.offset
        let top = try HAPPDUBody.items(cursor.readRemaining(), baseOffset: offset)
        accessories = []
        for item in top {
            guard item.type == HAPPDUParameterType.databaseAccessories else {
                throw HAPPDUBody.malformed(item, "the accessory list (type 0x18) of a database read, found type \(item.type.rawValue)")
            }
            for entry in try Self.list(item, of: HAPPDUParameterType.databaseAccessory, "accessory") {
                accessories.append(try Self.accessory(entry))
            }
        }
    }

    /// The contents of each entry of the list `item` holds, each entry being one item of `container`.
    private static func list(_ item: TLV8Item, of container: TLV8Type, _ what: String) throws(DecodeError) -> [TLV8Item] {
        let items = try HAPPDUBody.items(item.value, baseOffset: item.offset + 2)
        var contents: [TLV8Item] = []
        for entry in HAPPDUBody.entries(items) {
            guard entry.count == 1, let only = entry.first, only.type == container else {
                let offset = entry.first?.offset ?? item.offset
                throw DecodeError(
                    .malformed, layer: .hapPDU, offset: offset,
                    expected: "one \(what) item (type 0x\(String(container.rawValue, radix: 16))) per list entry, found \(entry.count) items")
            }
            contents.append(only)
        }
        return contents
    }

    private static func accessory(_ item: TLV8Item) throws(DecodeError) -> Accessory {
        var aid: UInt64?
        var services: [Service] = []
        for field in try HAPPDUBody.items(item.value, baseOffset: item.offset + 2) {
            switch field.type {
            case HAPPDUParameterType.databaseAccessoryInstanceID:
                aid = try HAPPDUBody.integer(field, maximumByteCount: 8, "an accessory instance ID")
            case HAPPDUParameterType.databaseServices:
                for entry in try list(field, of: HAPPDUParameterType.databaseService, "service") {
                    services.append(try service(entry))
                }
            default:
                throw HAPPDUBody.malformed(field, "an aid (0x1A) or service list (0x16) in an accessory, found type 0x\(String(field.type.rawValue, radix: 16))")
            }
        }
        guard let aid else { throw HAPPDUBody.malformed(item, "an accessory instance ID (0x1A) in the accessory") }
        return Accessory(instanceID: aid, services: services)
    }

    private static func service(_ item: TLV8Item) throws(DecodeError) -> Service {
        var service = Service(type: nil, instanceID: nil, characteristics: [])
        for field in try HAPPDUBody.items(item.value, baseOffset: item.offset + 2) {
            switch field.type {
            case HAPPDUParameterType.serviceType:
                service.type = try HAPPDUBody.uuid(field, "service type")
            case HAPPDUParameterType.serviceInstanceID:
                service.instanceID = try HAPPDUBody.integer(field, maximumByteCount: 8, "a service instance ID")
            case HAPPDUParameterType.databaseCharacteristics:
                for entry in try list(field, of: HAPPDUParameterType.databaseCharacteristic, "characteristic") {
                    service.characteristics.append(
                        try HAPCharacteristicSignature(items: HAPPDUBody.items(entry.value, baseOffset: entry.offset + 2)))
                }
            case HAPPDUParameterType.serviceProperties:
                service.properties = HAPServiceProperties(rawValue: UInt16(try HAPPDUBody.integer(field, maximumByteCount: 2, "service properties")))
            case HAPPDUParameterType.linkedServices:
                service.linkedServices = try HAPServiceSignature.instanceIDs(field)
            default:
                throw HAPPDUBody.malformed(field, "a known service field, found type 0x\(String(field.type.rawValue, radix: 16))")
            }
        }
        return service
    }
}
