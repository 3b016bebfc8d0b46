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
/// `DecodeError` (layer `tlv8`) whose offset counts from the value's first byte — inside a value
/// joined from fragments too, whose copy is mapped back to the fragments (`OffsetMap`).
public enum TLV8ValueDecoder {
    /// Decodes `bytes` as `schema`; secret fields keep their bytes only when `revealSecrets`.
    public static func decode(_ bytes: RawSpan, as schema: TLV8ValueSchema, revealSecrets: Bool = false) -> TLV8StructuredValue {
        var state = State(revealSecrets: revealSecrets)
        var fields: [TLV8Field] = []
        var cursor = ByteCursor(bytes, layer: .tlv8)
        var failure: DecodeError?
        do {
            try decodeItems(&cursor, schema, map: OffsetMap(), into: &fields, state: &state)
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

    /// Where the bytes a cursor reads are in the value. A value joined from fragments is read
    /// from a copy, whose positions are mapped back to the fragments' bytes, so that offsets and
    /// secret ranges always count from the value's first byte (and zeroing a secret never
    /// touches a fragment header). Empty: positions are the value's own.
    struct OffsetMap {
        /// Consecutive pieces of the copy: where each starts in it, where in the value, how long.
        var pieces: [(position: Int, offset: Int, length: Int)] = []

        func offset(_ position: Int) -> Int {
            guard let last = pieces.last else { return position }
            for piece in pieces where position < piece.position + piece.length {
                return piece.offset + position - piece.position
            }
            return last.offset + position - last.position
        }

        func offsets(_ range: Range<Int>) -> [Range<Int>] {
            guard !pieces.isEmpty else { return [range] }
            return pieces.compactMap { piece in
                let low = max(range.lowerBound, piece.position), high = min(range.upperBound, piece.position + piece.length)
                return low < high ? (piece.offset + low - piece.position) ..< (piece.offset + high - piece.position) : nil
            }
        }

        /// The map of a copy that joins `fragments` (positions here) and starts at `start`.
        func joining(_ fragments: [Range<Int>], at start: Int) -> OffsetMap {
            var joined = OffsetMap()
            var position = start
            for fragment in fragments {
                for range in offsets(fragment) {
                    joined.pieces.append((position, range.lowerBound, range.count))
                    position += range.count
                }
            }
            return joined
        }

        func remapped(_ error: DecodeError) -> DecodeError {
            var error = error
            error.offset = offset(error.offset)
            return error
        }
    }

    private static func decodeItems(
        _ cursor: inout ByteCursor, _ schema: TLV8ValueSchema, map: OffsetMap, into fields: inout [TLV8Field], state: inout State
    ) throws(DecodeError) {
        while !cursor.isAtEnd {
            let start = cursor.offset
            let type = try header(&cursor, "a type byte", map)
            let field = schema.field(ofType: type)
            let what = field.map { "\($0.name) (type \(type)) of \(schema.name)" } ?? "type \(type) of \(schema.name)"
            let length = Int(try header(&cursor, "the length byte of \(what)", map))
            let valueStart = cursor.offset
            guard length <= cursor.remainingCount else {
                throw map.remapped(cursor.truncated("\(length) value bytes of \(what) (\(cursor.remainingCount) remain)"))
            }
            let first = try cursor.read(count: length)
            guard length == 255, cursor.peekUInt8() == type else {
                if length == 0, type == 0, field == nil { continue }
                try decodeField(first, type: type, field, offset: start, valueStart: valueStart, map: map, into: &fields, state: &state)
                continue
            }
            // HAP: TLV8 fragmentation — a 255-byte item continues into the next item of its type.
            var joined = copy(first)
            var fragments = [valueStart ..< valueStart + length]
            var fragmentLength = length
            while fragmentLength == 255, cursor.peekUInt8() == type {
                let fragmentStart = cursor.offset
                try cursor.skip(count: 1)
                fragmentLength = Int(try header(&cursor, "the length byte of a continuation of \(what)", map))
                guard fragmentLength > 0 else {
                    throw map.remapped(DecodeError(.malformed, layer: .tlv8, offset: fragmentStart, expected: "a non-empty continuation of \(what)"))
                }
                guard fragmentLength <= cursor.remainingCount else {
                    throw map.remapped(cursor.truncated("\(fragmentLength) value bytes of a continuation of \(what) (\(cursor.remainingCount) remain)"))
                }
                fragments.append(cursor.offset ..< cursor.offset + fragmentLength)
                joined += copy(try cursor.read(count: fragmentLength))
            }
            try decodeField(
                joined.span.bytes, type: type, field, offset: start, valueStart: valueStart, map: map.joining(fragments, at: valueStart),
                into: &fields, state: &state, itemMap: map)
        }
    }

    /// A type or length byte; the error, if the value ends first, at its place in the value.
    private static func header(_ cursor: inout ByteCursor, _ what: String, _ map: OffsetMap) throws(DecodeError) -> UInt8 {
        guard let byte = cursor.peekUInt8() else { throw map.remapped(cursor.truncated(what)) }
        try cursor.skip(count: 1)
        return byte
    }

    /// `map` places the value's bytes (which start at `valueStart`); `itemMap` the item's own
    /// header, which differs for a value joined from fragments.
    private static func decodeField(
        _ value: RawSpan, type: UInt8, _ field: TLV8FieldSchema?, offset: Int, valueStart: Int, map: OffsetMap,
        into fields: inout [TLV8Field], state: inout State, itemMap: OffsetMap? = nil
    ) throws(DecodeError) {
        let length = value.byteCount
        let itemOffset = (itemMap ?? map).offset(offset)
        func make(_ decoded: TLV8Field.Value) -> TLV8Field {
            TLV8Field(type: type, name: field?.name, offset: itemOffset, length: length, value: decoded)
        }
        guard let field else {
            fields.append(make(.bytes(copy(value))))
            return
        }
        let malformed = { (expected: String) in
            DecodeError(.malformed, layer: .tlv8, offset: itemOffset, expected: "\(expected) in \(field.name) (type \(type)), found \(length) bytes")
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
            state.secretRanges += map.offsets(valueStart ..< valueStart + length)
            fields.append(make(.secret(byteCount: length, bytes: state.revealSecrets ? copy(value) : nil)))
        case .nested(let inner):
            var children: [TLV8Field] = []
            var cursor = ByteCursor(value, layer: .tlv8, baseOffset: valueStart)
            do {
                try decodeItems(&cursor, inner, map: map, into: &children, state: &state)
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
