import HAPCatalog
import HAPJSON
import TLV8
import WireParsing

/// TLV8 characteristic values read by their schema (`TLV8StructuredValue`), as text and JSON.
enum StructureText {
    /// The structure of a value in an accessory database, which reports read themselves: they
    /// never see secrets, so key material stays hidden.
    static func structure(ofDatabaseValue value: CharacteristicValue?, type: HAPUUID) -> TLV8StructuredValue? {
        guard case .bytes(let bytes)? = value, !bytes.isEmpty, let short = type.appleShortValue,
              let schema = TLV8ValueSchema.characteristic(shortType: short, written: false)
        else { return nil }
        return TLV8ValueDecoder.decode(bytes, as: schema)
    }

    /// A database value as reports print it: key material zeroed, since reports of a database
    /// never reveal it.
    static func printable(_ value: CharacteristicValue?, structure: TLV8StructuredValue?) -> CharacteristicValue? {
        guard let structure, !structure.secretRanges.isEmpty, case .bytes(let bytes)? = value else { return value }
        return .bytes(structure.withoutSecrets(bytes))
    }

    /// One line per field, nested fields indented under their name; the break, if any, last.
    static func lines(_ structure: TLV8StructuredValue, style: TextStyle) -> [String] {
        var lines = fieldLines(structure.fields, depth: 0, style: style)
        if let error = structure.error {
            lines.append(style.paint("! \(structure.schemaName): \(error.code) at byte \(error.offset) of the value: expected \(TerminalText.sanitized(error.expected))", .warning))
        }
        if structure.secretsWithheld {
            lines.append(style.paint("(SRTP master keys and salts withheld; --show-keys shows them)", .dim))
        }
        return lines
    }

    private static func fieldLines(_ fields: [TLV8Field], depth: Int, style: TextStyle) -> [String] {
        let indent = String(repeating: "  ", count: depth)
        var lines: [String] = []
        for field in fields {
            let name = field.name ?? "type \(field.type)"
            if case .fields(let inner) = field.value {
                lines.append(indent + name)
                lines += fieldLines(inner, depth: depth + 1, style: style)
            } else {
                lines.append(indent + name + " " + leaf(field.value, style: style))
            }
        }
        return lines
    }

    /// `51000`, `0 (IPv4)`, `0.5`, `"10.77.0.1"`, `2c4a…`, `16 bytes withheld`.
    static func leaf(_ value: TLV8Field.Value, style: TextStyle) -> String {
        switch value {
        case .unsigned(let number): String(number)
        case .enumerated(let number, let name): name.map { "\(number) (\($0))" } ?? "\(number) (unknown)"
        case .float(let number): number.description
        case .uuid(let bytes): uuidText(bytes)
        case .text(let text): TerminalText.sanitized(text.debugDescription)
        case .bytes(let bytes): ValueText.bytesSummary(bytes)
        case .secret(let count, let bytes?): "\(count) bytes " + Hex.encode(bytes)
        case .secret(let count, nil): style.paint("\(count) bytes withheld", .dim)
        case .fields(let fields): "\(fields.count) fields"
        }
    }

    /// `0f1e2d3c-…`: 8-4-4-4-12 lower-case hex.
    static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = Array(Hex.encode(bytes))
        guard hex.count == 32 else { return String(hex) }
        return [0 ..< 8, 8 ..< 12, 12 ..< 16, 16 ..< 20, 20 ..< 32].map { String(hex[$0]) }.joined(separator: "-")
    }

    // MARK: JSON

    /// `structure`: the schema, the fields, the break and whether secrets were withheld (docs/json.md).
    static func write(_ structure: TLV8StructuredValue, into writer: inout JSONWriter) {
        writer.key("structure")
        writer.beginObject()
        writer.member("schema", structure.schemaName)
        writeFields(structure.fields, into: &writer)
        if let error = structure.error {
            writer.key("error")
            writer.beginObject()
            writer.member("code", error.code.rawValue)
            writer.member("offset", error.offset)
            writer.member("expected", error.expected)
            writer.endObject()
        }
        writer.member("secretsWithheld", structure.secretsWithheld)
        writer.endObject()
    }

    private static func writeFields(_ fields: [TLV8Field], into writer: inout JSONWriter) {
        writer.objects("fields", fields) { writer, field in
            writer.member("type", Int(field.type))
            writer.member("name", field.name)
            writer.member("offset", field.offset)
            writer.member("length", field.length)
            switch field.value {
            case .unsigned(let number):
                writer.member("value", number)
            case .enumerated(let number, let name):
                writer.member("value", number)
                writer.member("valueName", name)
            case .float(let number):
                // Through its shortest decimal text, so that 0.1 as a float is written 0.1.
                writer.key("value")
                writer.double(Double(number.description) ?? Double(number))
            case .uuid(let bytes):
                writer.member("uuid", uuidText(bytes))
            case .text(let text):
                writer.member("text", text)
            case .bytes(let bytes):
                writer.member("hex", hex: bytes)
            case .secret(_, let bytes):
                writer.member("secret", true)
                writer.member("hex", hex: bytes)
            case .fields(let inner):
                writeFields(inner, into: &writer)
            }
        }
    }
}
