import HAPCatalog
import HAPJSON

/// A characteristic value as HAP-BLE carries it in the Value parameter: the format's binary
/// form, little-endian (HAP: HAP-BLE characteristic value encoding; HomeKitADK
/// HAPBLECharacteristicReadAndSerializeValue.c; aiohomekit controller/ble/values.py): bool and
/// uint8 in one byte, uint16, uint32 and uint64 in 2, 4 and 8, int a 32-bit signed integer, float
/// an IEEE 754 single, string UTF-8, tlv8 and data as they are.
enum BLECharacteristicValue {
    /// The bytes of a format of fixed size; nil for strings, TLV8 and data.
    static func byteCount(of format: CharacteristicFormat) -> Int? {
        switch format {
        case .bool, .uint8: 1
        case .uint16: 2
        case .uint32, .int, .float: 4
        case .uint64: 8
        case .string, .tlv8, .data: nil
        }
    }

    static func interpret(_ bytes: [UInt8], as format: CharacteristicFormat?) -> InterpretedValue {
        guard let format else { return InterpretedValue(value: .bytes(bytes)) }
        func unsigned(_ count: Int) -> UInt64? {
            guard bytes.count == count else { return nil }
            return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        let value: CharacteristicValue? = switch format {
        case .bool: unsigned(1).flatMap { $0 <= 1 ? .bool($0 == 1) : nil }
        case .uint8: unsigned(1).map { .unsignedInteger($0) }
        case .uint16: unsigned(2).map { .unsignedInteger($0) }
        case .uint32: unsigned(4).map { .unsignedInteger($0) }
        case .uint64: unsigned(8).map { .unsignedInteger($0) }
        case .int: unsigned(4).map { .integer(Int64(Int32(bitPattern: UInt32($0)))) }
        case .float: unsigned(4).map { .float(Double(Float(bitPattern: UInt32($0)))) }
        case .string: String(validating: bytes, as: UTF8.self).map { .string($0) }
        case .tlv8, .data: .bytes(bytes)
        }
        guard let value else {
            return InterpretedValue(value: .bytes(bytes), issues: [.wrongFormat(expected: format, found: "\(bytes.count) bytes")])
        }
        return InterpretedValue(value: value)
    }
}
