import WireParsing

/// Reads a TLV8 characteristic value by its schema, from borrowed bytes.
///
/// Characteristic values are lists as much as records: HAP-python writes the profiles, levels
/// and resolutions a camera supports as items of one type one after the other, with no
/// separator. So an item continues into the next of its type only when it is 255 bytes long
/// (HAP: TLV8 fragmentation), and a type may occur any number of times; a zero-length item of
/// type 0 the schema does not know is a list separator (HAP-NodeJS tlv.ts) and is skipped.
///
/// Every length is checked against the bytes that remain before it is used, and nesting
/// follows the schema only, so the work is linear in the value and bounded by the schema's
/// depth. At the first problem the decode stops, keeping every field read before it, with a
/// `DecodeError` (layer `tlv8`) whose offset counts from the value's first byte.
public enum TLV8ValueDecoder {
    /// Decodes `bytes` as `schema`; secret fields keep their bytes only when `revealSecrets`.
    public static func decode(_ bytes: RawSpan, as schema: TLV8ValueSchema, revealSecrets: Bool = false) -> TLV8StructuredValue {
        var state = State(revealSecrets: revealSecrets)
        var fields: [TLV8Field] = []
        var cursor = ByteCursor(bytes, layer: .tlv8)
        var failure: DecodeError?
        do {
            try decodeItems(&cursor, schema, into: &fields, state: &state)
        } catch {
            failure = error
        }
        return TLV8StructuredValue(
            schemaName: schema.name, fields: fields, error: failure,
            secretsWithheld: !revealSecrets && !state.secretRanges.isEmpty, secretRanges: state.secretRanges)
    }

    public static func decode(_ bytes: [UInt8], as schema: TLV8ValueSchema, revealSecrets: Bool = false) -> TLV8StructuredValue {
        decode(bytes.span.bytes, as: schema, revealSecrets: revealSecrets)
    }

    private struct State {
        let revealSecrets: Bool
        var secretRanges: [Range<Int>] = []
    }

    private static func decodeItems(
        _ cursor: inout ByteCursor, _ schema: TLV8ValueSchema, into fields: inout [TLV8Field], state: inout State
    ) throws(DecodeError) {
        while !cursor.isAtEnd {
            let start = cursor.offset
            let type = try cursor.readUInt8("a type byte")
            let field = schema.field(ofType: type)
            let what = field.map { "\($0.name) (type \(type)) of \(schema.name)" } ?? "type \(type) of \(schema.name)"
            let length = Int(try cursor.readUInt8("the length byte of \(what)"))
            let valueStart = cursor.offset
            let first = try cursor.read(count: length, "\(length) value bytes of \(what)")
            guard length == 255, cursor.peekUInt8() == type else {
                if length == 0, type == 0, field == nil { continue }
                try decodeField(first, type: type, field, offset: start, valueStart: valueStart, into: &fields, state: &state)
                continue
            }
            // HAP: TLV8 fragmentation — a 255-byte item continues into the next item of its type.
            var joined = copy(first)
            var fragmentLength = length
            while fragmentLength == 255, cursor.peekUInt8() == type {
                try cursor.skip(count: 1)
                fragmentLength = Int(try cursor.readUInt8("the length byte of a continuation of \(what)"))
                guard fragmentLength > 0 else { throw cursor.malformed("a non-empty continuation of \(what)", at: cursor.position - 2) }
                joined += copy(try cursor.read(count: fragmentLength, "\(fragmentLength) value bytes of a continuation of \(what)"))
            }
            // Offsets inside a joined value count from its first fragment's value, as if unfragmented.
            try decodeField(joined.span.bytes, type: type, field, offset: start, valueStart: valueStart, into: &fields, state: &state)
        }
    }

    private static func decodeField(
        _ value: RawSpan, type: UInt8, _ field: TLV8FieldSchema?, offset: Int, valueStart: Int,
        into fields: inout [TLV8Field], state: inout State
    ) throws(DecodeError) {
        let length = value.byteCount
        func make(_ decoded: TLV8Field.Value) -> TLV8Field {
            TLV8Field(type: type, name: field?.name, offset: offset, length: length, value: decoded)
        }
        guard let field else {
            fields.append(make(.bytes(copy(value))))
            return
        }
        let malformed = { (expected: String) in
            DecodeError(.malformed, layer: .tlv8, offset: offset, expected: "\(expected) in \(field.name) (type \(type)), found \(length) bytes")
        }
        switch field.kind {
        case .unsigned(let maximum):
            guard (1 ... maximum).contains(length) else { throw malformed("a little-endian integer of 1 to \(maximum) bytes") }
            fields.append(make(.unsigned(littleEndian(value))))
        case .enumeration(let maximum, let names):
            guard (1 ... maximum).contains(length) else { throw malformed("a little-endian integer of 1 to \(maximum) bytes") }
            let number = littleEndian(value)
            fields.append(make(.enumerated(number, name: names[number])))
        case .float32:
            guard length == 4 else { throw malformed("a 4-byte float") }
            fields.append(make(.float(Float(bitPattern: UInt32(littleEndian(value))))))
        case .uuid:
            guard length == 16 else { throw malformed("a 16-byte UUID") }
            fields.append(make(.uuid(copy(value))))
        case .text:
            guard let text = String(validating: copy(value), as: UTF8.self) else { throw malformed("UTF-8 text") }
            fields.append(make(.text(text)))
        case .bytes:
            fields.append(make(.bytes(copy(value))))
        case .secret:
            state.secretRanges.append(valueStart ..< valueStart + length)
            fields.append(make(.secret(byteCount: length, bytes: state.revealSecrets ? copy(value) : nil)))
        case .nested(let inner):
            var children: [TLV8Field] = []
            var cursor = ByteCursor(value, layer: .tlv8, baseOffset: valueStart)
            do {
                try decodeItems(&cursor, inner, into: &children, state: &state)
            } catch {
                fields.append(make(.fields(children)))
                throw error
            }
            fields.append(make(.fields(children)))
        }
    }

    private static func copy(_ span: RawSpan) -> [UInt8] {
        span.withUnsafeBytes { Array($0) }
    }

    /// At most 8 bytes: the schemas' integers are no wider.
    private static func littleEndian(_ value: RawSpan) -> UInt64 {
        var result: UInt64 = 0
        for index in 0 ..< min(value.byteCount, 8) {
            result |= UInt64(value.unsafeLoad(fromByteOffset: index, as: UInt8.self)) << (8 * UInt64(index))
        }
        return result
    }
}
