/// The `format` of a characteristic: how its value is written in JSON. (HAP: characteristic formats.)
public enum CharacteristicFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case bool
    case uint8
    case uint16
    case uint32
    case uint64
    /// A signed 32-bit integer.
    case int
    case float
    case string
    /// Base64 of TLV8 bytes.
    case tlv8
    /// Base64 of opaque bytes.
    case data

    /// The format named by a `format` string; nil for a string HAP does not define.
    public init?(wireName: String) {
        self.init(rawValue: wireName)
    }

    /// The name written in JSON.
    public var wireName: String { rawValue }
    public var description: String { rawValue }

    /// Whether values are integers (the unsigned formats and `int`).
    public var isInteger: Bool {
        integerRange != nil
    }

    /// Whether values are numbers (integers or `float`).
    public var isNumeric: Bool {
        isInteger || self == .float
    }

    /// Whether values are base64 text of bytes.
    public var isBinary: Bool {
        self == .tlv8 || self == .data
    }

    /// The values an integer format can hold, as a closed range in the wider signed or unsigned
    /// 64-bit type; nil for non-integer formats.
    public var integerRange: IntegerRange? {
        switch self {
        case .uint8: .unsigned(0...UInt64(UInt8.max))
        case .uint16: .unsigned(0...UInt64(UInt16.max))
        case .uint32: .unsigned(0...UInt64(UInt32.max))
        case .uint64: .unsigned(0...UInt64.max)
        case .int: .signed(Int64(Int32.min)...Int64(Int32.max))
        case .bool, .float, .string, .tlv8, .data: nil
        }
    }

    /// The range of an integer format.
    public enum IntegerRange: Hashable, Sendable {
        case unsigned(ClosedRange<UInt64>)
        case signed(ClosedRange<Int64>)

        /// Whether `value` fits.
        public func contains(_ value: Int64) -> Bool {
            switch self {
            case .unsigned(let range): value >= 0 && range.contains(UInt64(value))
            case .signed(let range): range.contains(value)
            }
        }

        /// Whether `value` fits.
        public func contains(_ value: UInt64) -> Bool {
            switch self {
            case .unsigned(let range): range.contains(value)
            case .signed(let range): value <= UInt64(range.upperBound)
            }
        }
    }
}
