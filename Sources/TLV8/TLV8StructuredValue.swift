import WireParsing

/// A TLV8 characteristic value read by its schema: its fields in wire order, and where the value
/// broke its structure if it did (the fields before that point are kept).
public struct TLV8StructuredValue: Sendable, Hashable {
    /// The schema's name: `Setup Endpoints`.
    public let schemaName: String
    public let fields: [TLV8Field]
    /// The first place the value breaks its structure; offsets count from the value's first byte.
    public let error: DecodeError?
    /// Whether key material was left out (`TLV8Field.Value.secret` with no bytes).
    public let secretsWithheld: Bool
    /// Where the value's secret bytes are, from its first byte, so that a copy of the raw value
    /// can be made without them.
    public let secretRanges: [Range<Int>]

    public init(schemaName: String, fields: [TLV8Field], error: DecodeError?, secretsWithheld: Bool, secretRanges: [Range<Int>]) {
        self.schemaName = schemaName
        self.fields = fields
        self.error = error
        self.secretsWithheld = secretsWithheld
        self.secretRanges = secretRanges
    }

    /// The first field of `name` at this level, then inside each nested field named by `path`.
    public func field(_ path: String...) -> TLV8Field? {
        var level = fields
        var found: TLV8Field?
        for name in path {
            guard let next = level.first(where: { $0.name == name }) else { return nil }
            found = next
            if case .fields(let inner) = next.value { level = inner } else { level = [] }
        }
        return found
    }

    /// `bytes` with every secret byte set to zero.
    public func withoutSecrets(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        for range in secretRanges where range.upperBound <= copy.count {
            for index in range { copy[index] = 0 }
        }
        return copy
    }
}

/// One item of a structured value.
public struct TLV8Field: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case unsigned(UInt64)
        /// An enumerated value and its name, nil for a value the sources do not name.
        case enumerated(UInt64, name: String?)
        case float(Float)
        /// 16 bytes, network order.
        case uuid([UInt8])
        case text(String)
        case bytes([UInt8])
        /// Key material: its bytes only when the user asked for secrets.
        case secret(byteCount: Int, bytes: [UInt8]?)
        case fields([TLV8Field])
    }

    public let type: UInt8
    /// The schema's name for the type; nil for a type the schema does not know.
    public let name: String?
    /// The offset of the item's type byte from the value's first byte.
    public let offset: Int
    /// The value length, fragments joined.
    public let length: Int
    public let value: Value

    public init(type: UInt8, name: String?, offset: Int, length: Int, value: Value) {
        self.type = type
        self.name = name
        self.offset = offset
        self.length = length
        self.value = value
    }
}
