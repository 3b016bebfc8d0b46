/// The structure of a TLV8-valued characteristic: which item types it holds, what each means
/// and how its bytes are read.
///
/// HAP publishes the structures only in the non-commercial specification; the ones here are
/// taken from the open implementations that read and write them (HAP-python pyhap/camera.py,
/// HAP-NodeJS src/lib/camera/RTPStreamManagement.ts and src/lib/controller/
/// AdaptiveLightingController.ts), each field citing where it comes from.
///
/// A schema is a finite tree built in code, so a decode nests at most `depth` levels, however
/// the bytes are arranged: an item of a type the schema does not nest is never opened.
public struct TLV8ValueSchema: Sendable {
    /// The characteristic, for reports: `Setup Endpoints`.
    public let name: String
    public let fields: [TLV8FieldSchema]
    /// Whether a value of this schema can hold key material (`.secret` fields, at any depth).
    public let holdsSecrets: Bool

    public init(_ name: String, _ fields: [TLV8FieldSchema]) {
        self.name = name
        self.fields = fields
        holdsSecrets = fields.contains { field in
            switch field.kind {
            case .secret: true
            case .nested(let inner): inner.holdsSecrets
            default: false
            }
        }
    }

    public func field(ofType type: UInt8) -> TLV8FieldSchema? {
        fields.first { $0.type == type }
    }

    /// How many levels of items the schema opens: 1 for a flat list of items.
    public var depth: Int {
        1 + (fields.compactMap { field -> Int? in
            if case .nested(let inner) = field.kind { inner.depth } else { nil }
        }.max() ?? 0)
    }
}

/// One item type of a schema.
public struct TLV8FieldSchema: Sendable {
    public enum Kind: Sendable {
        /// A little-endian unsigned integer of 1 to `maximumByteCount` bytes (HAP: TLV8
        /// integers; HAP-python writes some one-byte fields as two bytes, so widths vary).
        case unsigned(maximumByteCount: Int)
        /// An unsigned integer with a name for each known value.
        case enumeration(maximumByteCount: Int, names: [UInt64: String])
        /// A little-endian IEEE 754 single (`struct.pack('<f')` in HAP-python).
        case float32
        /// A 16-byte UUID in network order (`UUID(bytes=…)` in HAP-python).
        case uuid
        /// UTF-8 text.
        case text
        /// Opaque bytes.
        case bytes
        /// Key material: shown only when the user asks for secrets (`--show-keys`).
        case secret
        /// A TLV8 value of its own.
        case nested(TLV8ValueSchema)
    }

    public let type: UInt8
    /// A stable name, for JSON and text: `videoRTPPort`.
    public let name: String
    public let kind: Kind

    public init(_ type: UInt8, _ name: String, _ kind: Kind) {
        self.type = type
        self.name = name
        self.kind = kind
    }
}
