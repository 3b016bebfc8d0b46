import HAPCatalog
import HAPJSON
import HAPPDU
import WireParsing

/// The CoAP database read (opcode 0x09) in the shared model: the `HAPDatabase` the PDU codec
/// decoded, written as the HAP-over-IP attribute database JSON that `AccessoryDatabase` reads, so
/// that every consumer types CoAP characteristics exactly as it types IP ones.
///
/// The mapping is aiohomekit's (`controller/coap/structs.py` `Pdu09Characteristic.to_dict`,
/// `Pdu09Service.to_dict`): the presentation format gives `format` and `unit`, the properties
/// give `perms`, the valid range gives `minValue`/`maxValue`, the step `minStep`, the valid
/// values `valid-values`; the user description becomes `description`.
enum CoAPDatabaseModel {
    /// The database as `AccessoryDatabase`; what the JSON reader notices is kept in its diagnostics.
    static func accessoryDatabase(_ database: HAPDatabase) throws(DecodeError) -> AccessoryDatabase {
        let accessories = database.accessories.map { accessory in
            JSONValue.object([
                JSONMember(key: "aid", value: .number(JSONNumber(accessory.instanceID))),
                JSONMember(key: "services", value: .array(accessory.services.map(service))),
            ])
        }
        var writer = JSONWriter()
        writer.write(.object([JSONMember(key: "accessories", value: .array(accessories))]))
        return try AccessoryDatabase(bytes: writer.bytes)
    }

    private static func service(_ service: HAPDatabase.Service) -> JSONValue {
        var members: [JSONMember] = []
        if let iid = service.instanceID { members.append(JSONMember(key: "iid", value: .number(JSONNumber(iid)))) }
        if let type = service.type { members.append(JSONMember(key: "type", value: .string(type.description))) }
        if let properties = service.properties {
            members.append(JSONMember(key: "primary", value: .bool(properties.contains(.primary))))
            members.append(JSONMember(key: "hidden", value: .bool(properties.contains(.hidden))))
        }
        if !service.linkedServices.isEmpty {
            members.append(JSONMember(key: "linked", value: .array(service.linkedServices.map { .number(JSONNumber(UInt64($0))) })))
        }
        members.append(JSONMember(key: "characteristics", value: .array(service.characteristics.map(characteristic))))
        return .object(members)
    }

    private static func characteristic(_ signature: HAPCharacteristicSignature) -> JSONValue {
        var members: [JSONMember] = []
        if let iid = signature.instanceID { members.append(JSONMember(key: "iid", value: .number(JSONNumber(iid)))) }
        if let type = signature.type { members.append(JSONMember(key: "type", value: .string(type.description))) }
        let permissions = signature.properties?.permissions ?? []
        members.append(JSONMember(key: "perms", value: .array(permissions.map { .string($0) })))
        let format = signature.presentationFormat?.characteristicFormat
        if let format { members.append(JSONMember(key: "format", value: .string(format.wireName))) }
        if let unit = signature.presentationFormat?.characteristicUnit {
            members.append(JSONMember(key: "unit", value: .string(unit.rawValue)))
        }
        if let description = signature.userDescription { members.append(JSONMember(key: "description", value: .string(description))) }
        if let format, let range = signature.validRange, range.count % 2 == 0, !range.isEmpty {
            let half = range.count / 2
            if let low = GATTValue.json(Array(range[..<half]), format: format), let high = GATTValue.json(Array(range[half...]), format: format) {
                members.append(JSONMember(key: "minValue", value: low))
                members.append(JSONMember(key: "maxValue", value: high))
            }
        }
        if let format, let step = signature.stepValue, let value = GATTValue.json(step, format: format) {
            members.append(JSONMember(key: "minStep", value: value))
        }
        if let values = signature.validValues {
            members.append(JSONMember(key: "valid-values", value: .array(values.map { .number(JSONNumber(UInt64($0))) })))
        }
        return .object(members)
    }
}

/// A characteristic value as HAP-BLE and HAP over CoAP carry it in HAP-Param-Value: the
/// characteristic's format in little-endian binary, strings in UTF-8, data and TLV8 as the bytes
/// (HomeKitADK `HAPBLECharacteristic+Value`; aiohomekit `controller/coap/structs.py`
/// `_unpack_value`), turned into the JSON value HAP over IP would send, so that
/// `HAPCharacteristic.interpret` checks it the same way.
enum GATTValue {
    /// Nil when the bytes do not fit the format (a wrong length).
    static func json(_ bytes: [UInt8], format: CharacteristicFormat) -> JSONValue? {
        func unsigned(_ count: Int) -> UInt64? {
            guard bytes.count == count else { return nil }
            return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        switch format {
        case .bool: return unsigned(1).map { .bool($0 != 0) }
        case .uint8: return unsigned(1).map { .number(JSONNumber($0)) }
        case .uint16: return unsigned(2).map { .number(JSONNumber($0)) }
        case .uint32: return unsigned(4).map { .number(JSONNumber($0)) }
        case .uint64: return unsigned(8).map { .number(JSONNumber($0)) }
        case .int: return unsigned(4).map { .number(JSONNumber(Int64(Int32(bitPattern: UInt32($0))))) }
        case .float:
            guard let bits = unsigned(4) else { return nil }
            // Float32 printed as its shortest decimal form: 21.5, not 21.5000000001.
            let value = Float(bitPattern: UInt32(bits))
            return Double(value.description).flatMap { JSONNumber($0) }.map(JSONValue.number) ?? .null
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        case .tlv8, .data: return .string(Base64.encode(bytes))
        }
    }

    /// A value whose format is unknown (no database): an integer for 1 to 8 bytes, else base64.
    static func untypedJSON(_ bytes: [UInt8]) -> JSONValue {
        guard (1 ... 8).contains(bytes.count) else { return .string(Base64.encode(bytes)) }
        return .number(JSONNumber(bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
}
