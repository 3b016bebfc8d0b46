/// Writes compact JSON (RFC 8259): no insignificant whitespace, members in the order given.
///
/// Write whole values with `write(_:)`, or stream with `beginObject()`, `key(_:)`, the scalar
/// writers and `endObject()`; the writer puts the commas in. Strings are escaped as RFC 8259 §7
/// requires (quote, backslash, and every control character below U+0020), so any Swift string
/// comes out as valid JSON.
public struct JSONWriter: Sendable {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows a sibling and so needs a comma first.
    private var followsSibling = false

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Whole values

    public mutating func write(_ value: JSONValue) {
        switch value.content {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .number(let number): self.number(number)
        case .string(let string): self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                write(member.value)
            }
            endObject()
        }
    }

    // MARK: Streaming

    public mutating func beginObject() {
        startValue()
        bytes.append(UInt8(ascii: "{"))
        followsSibling = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        followsSibling = true
    }

    public mutating func beginArray() {
        startValue()
        bytes.append(UInt8(ascii: "["))
        followsSibling = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        followsSibling = true
    }

    /// The key of the next member of the object being written.
    public mutating func key(_ key: String) {
        startValue()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        followsSibling = false
    }

    public mutating func string(_ value: String) {
        startValue()
        appendQuoted(value)
        followsSibling = true
    }

    public mutating func number(_ value: JSONNumber) {
        startValue()
        bytes.append(contentsOf: value.text.utf8)
        followsSibling = true
    }

    public mutating func integer(_ value: Int64) {
        number(JSONNumber(value))
    }

    public mutating func unsignedInteger(_ value: UInt64) {
        number(JSONNumber(value))
    }

    /// A floating-point number; `null` for infinities and NaN, which JSON cannot express.
    public mutating func double(_ value: Double) {
        if let number = JSONNumber(value) {
            self.number(number)
        } else {
            null()
        }
    }

    public mutating func bool(_ value: Bool) {
        startValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        followsSibling = true
    }

    public mutating func null() {
        startValue()
        bytes.append(contentsOf: "null".utf8)
        followsSibling = true
    }

    // MARK: Text

    private mutating func startValue() {
        if followsSibling { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendEscape(_ character: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(character)
    }

    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): appendEscape(byte)
            case 0x0A: appendEscape(UInt8(ascii: "n"))
            case 0x0D: appendEscape(UInt8(ascii: "r"))
            case 0x09: appendEscape(UInt8(ascii: "t"))
            case 0x08: appendEscape(UInt8(ascii: "b"))
            case 0x0C: appendEscape(UInt8(ascii: "f"))
            case 0 ..< 0x20:
                appendEscape(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
