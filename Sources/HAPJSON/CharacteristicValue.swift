import HAPCatalog
import WireParsing

/// How `tlv8` and `data` values are written as JSON text.
public enum BinaryValueEncoding: String, Hashable, Sendable, CustomStringConvertible {
    /// Base64, as HAP over IP sends them (PROTOCOL §6) and most dumps keep them.
    case base64
    /// Hexadecimal digits, as aiohomekit writes what it read over Bluetooth LE or Thread
    /// (`aiohomekit/controller/ble/values.py` `from_bytes`: `value.hex()`).
    case hex

    public var description: String { rawValue }
}

/// A characteristic value, typed by the characteristic's format.
public enum CharacteristicValue: Hashable, Sendable, CustomStringConvertible {
    /// `null`: legal for any format (HAP-NodeJS and ADK send it for Programmable Switch Event reads).
    case null
    case bool(Bool)
    /// A `uint8` … `uint64` value (or a non-negative `int` value that was written as such).
    case unsignedInteger(UInt64)
    /// An `int` value, or a negative number sent for an unsigned format.
    case integer(Int64)
    /// A `float` value, or a fractional number sent for an integer format.
    case float(Double)
    case string(String)
    /// The decoded base64 (or hex) of a `tlv8` or `data` value.
    case bytes([UInt8])
    /// JSON that does not fit the format, or a value whose format is unknown.
    case untyped(JSONValue)

    /// The value as a Double, for numbers.
    public var numericValue: Double? {
        switch self {
        case .unsignedInteger(let value): Double(value)
        case .integer(let value): Double(value)
        case .float(let value): value
        case .null, .bool, .string, .bytes, .untyped: nil
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .unsignedInteger(let value): String(value)
        case .integer(let value): String(value)
        case .float(let value): value.description
        case .string(let value): JSONValue.string(value).description
        case .bytes(let value): "<\(value.count) bytes>"
        case .untyped(let value): value.description
        }
    }

    /// The value as HAP JSON writes it: integers and floats as numbers, `bool` as `true`/`false`,
    /// bytes as base64.
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .unsignedInteger(let value): .number(JSONNumber(value))
        case .integer(let value): .number(JSONNumber(value))
        case .float(let value): JSONNumber(value).map(JSONValue.number) ?? .null
        case .string(let value): .string(value)
        case .bytes(let value): .string(Base64.encode(value))
        case .untyped(let value): value
        }
    }
}

/// A value as decoded for its characteristic, with what is wrong with it.
public struct InterpretedValue: Hashable, Sendable {
    public var value: CharacteristicValue
    public var issues: [ValueIssue]

    public init(value: CharacteristicValue, issues: [ValueIssue] = []) {
        self.value = value
        self.issues = issues
    }

    /// Decodes `json` as a value of `format` (HAP: characteristic formats), tolerating what real
    /// devices send: `bool` as `true`/`false` or `1`/`0` (HAP quirk: ADK writes numbers, Siri writes
    /// literals); integers written with a fraction or exponent (`50.0`, from `%g` printers) when they
    /// are whole; `tlv8` and `data` as base64 (or, in dumps of Bluetooth LE and Thread accessories,
    /// hex). Anything else becomes `.untyped` with an issue. With no format, the value stays untyped.
    ///
    /// `json` is borrowed: an initialiser's argument is otherwise passed owned, and every caller
    /// then copied the JSON to hand it over (~90 instructions a value); only an untyped value
    /// keeps a copy.
    public init(decoding json: borrowing JSONValue, as format: CharacteristicFormat?, binary: BinaryValueEncoding = .base64) {
        // Each case builds its value and issues once: starting from `.untyped(json)` and an
        // eagerly made `wrongFormat` issue copied the JSON and built a string per value, which
        // nearly every value then threw away (~170 instructions of each characteristic activity).
        guard let format, !json.isNull else {
            self.init(value: json.isNull ? .null : .untyped(copy json))
            return
        }
        switch json.content {
        case .bool(let bool) where format == .bool:
            self.init(value: .bool(bool))
        case .number(let number):
            switch format {
            case .bool:
                guard let integer = number.int64Value, integer == 0 || integer == 1 else { self.init(json, isNot: format); return }
                self.init(value: .bool(integer == 1), issues: number.isIntegerLiteral ? [] : [.integerWithFraction])
            case .uint8, .uint16, .uint32, .uint64, .int:
                self.init(integer: number, of: json, as: format)
            case .float:
                self.init(value: .float(number.doubleValue))
            case .string, .tlv8, .data:
                self.init(json, isNot: format)
            }
        case .string(let text):
            switch format {
            case .string:
                self.init(value: .string(text))
            case .tlv8, .data:
                switch binary {
                case .base64:
                    if let bytes = Base64.decode(text) { self.init(value: .bytes(bytes)) } else { self.init(value: .untyped(copy json), issues: [.invalidBase64]) }
                case .hex:
                    if let bytes = Hex.decode(text) { self.init(value: .bytes(bytes)) } else { self.init(value: .untyped(copy json), issues: [.invalidHex]) }
                }
            case .bool, .uint8, .uint16, .uint32, .uint64, .int, .float:
                self.init(json, isNot: format)
            }
        case .null, .bool, .array, .object:
            self.init(json, isNot: format)
        }
    }

    /// A number for an integer format: kept exact, with what is wrong with it.
    private init(integer number: JSONNumber, of json: borrowing JSONValue, as format: CharacteristicFormat) {
        guard let range = format.integerRange else {
            self.init(json, isNot: format)
            return
        }
        if let integer = number.int64Value {
            self.init(value: integer >= 0 && format != .int ? .unsignedInteger(UInt64(integer)) : .integer(integer))
            if !range.contains(integer) { issues.append(.outsideFormatRange(format)) }
        } else if let integer = number.uint64Value {
            self.init(value: .unsignedInteger(integer))
            if !range.contains(integer) { issues.append(.outsideFormatRange(format)) }
        } else {
            self.init(value: .float(number.doubleValue), issues: [.wrongFormat(expected: format, found: "fractional number")])
            return
        }
        if !number.isIntegerLiteral { issues.append(.integerWithFraction) }
    }

    /// JSON of another kind than `format` needs, kept untyped.
    private init(_ json: borrowing JSONValue, isNot format: CharacteristicFormat) {
        self.init(value: .untyped(copy json), issues: [.wrongFormat(expected: format, found: json.kindName)])
    }
}
