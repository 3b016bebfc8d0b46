import HAPCatalog
import WireParsing

/// The 7-byte GATT Characteristic Presentation Format descriptor (Core Vol 3 Part G
/// §3.3.3.5): format (1), exponent (1, signed), unit (2, a GATT unit UUID), namespace (1),
/// description (2). HAP-BLE and the CoAP database carry it in HAP-Param-GATT-Presentation-
/// Format-Descriptor.
public struct GATTPresentationFormat: Hashable, Sendable {
    public static let length = 7

    public var format: UInt8
    public var exponent: Int8
    public var unit: UInt16
    public var namespace: UInt8
    public var descriptionValue: UInt16

    public init(format: UInt8, exponent: Int8 = 0, unit: UInt16 = 0x2700, namespace: UInt8 = 0x01, descriptionValue: UInt16 = 0) {
        self.format = format
        self.exponent = exponent
        self.unit = unit
        self.namespace = namespace
        self.descriptionValue = descriptionValue
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        format = try cursor.readUInt8("the format of a presentation format")
        exponent = Int8(bitPattern: try cursor.readUInt8("the exponent of a presentation format"))
        unit = try cursor.readUInt16LittleEndian("the unit of a presentation format")
        namespace = try cursor.readUInt8("the namespace of a presentation format")
        descriptionValue = try cursor.readUInt16LittleEndian("the description of a presentation format")
    }

    // GATT format codes HAP uses (aiohomekit controller/coap/structs.py `pf_format`).
    public var characteristicFormat: CharacteristicFormat? {
        switch format {
        case 0x01: .bool
        case 0x04: .uint8
        case 0x06: .uint16
        case 0x08: .uint32
        case 0x0A: .uint64
        case 0x10: .int
        case 0x14: .float
        case 0x19: .string
        // HAP-BLE sends both data and TLV8 characteristics as opaque structures.
        case 0x1B: .data
        default: nil
        }
    }

    /// The HAP unit; nil for unitless (0x2700) and units HAP does not define (aiohomekit
    /// `pf_unit`: 0x272F celsius, 0x2763 arcdegrees, 0x27AD percentage, 0x2731 lux, 0x2703 seconds).
    public var characteristicUnit: CharacteristicUnit? {
        switch unit {
        case 0x272F: .celsius
        case 0x2763: .arcdegrees
        case 0x27AD: .percentage
        case 0x2731: .lux
        case 0x2703: .seconds
        default: nil
        }
    }

    public var encoded: [UInt8] {
        [format, UInt8(bitPattern: exponent), UInt8(truncatingIfNeeded: unit), UInt8(unit >> 8), namespace,
         UInt8(truncatingIfNeeded: descriptionValue), UInt8(descriptionValue >> 8)]
    }
}
