/// One JSON value, with the byte offset where it began in the input.
///
/// Two values are equal when their content is equal; where they were found does not matter (as
/// `DecodeError` compares by code, not offset). Object members keep their order and their
/// duplicates, because HAP bodies are audited as sent.
public struct JSONValue: Hashable, Sendable, CustomStringConvertible {
    public enum Content: Hashable, Sendable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    public var content: Content
    /// The absolute offset of the value's first byte in the parsed input; 0 for values built in code.
    public var offset: Int

    public init(_ content: Content, offset: Int = 0) {
        self.content = content
        self.offset = offset
    }

    public static let null = JSONValue(.null)
    public static func bool(_ value: Bool) -> JSONValue { JSONValue(.bool(value)) }
    public static func number(_ value: JSONNumber) -> JSONValue { JSONValue(.number(value)) }
    public static func string(_ value: String) -> JSONValue { JSONValue(.string(value)) }
    public static func array(_ elements: [JSONValue]) -> JSONValue { JSONValue(.array(elements)) }
    public static func object(_ members: [JSONMember]) -> JSONValue { JSONValue(.object(members)) }
    /// An object from key–value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        JSONValue(.object(pairs.map { JSONMember(key: $0.key, value: $0.value) }))
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.content == rhs.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(content)
    }

    // MARK: Reading

    /// The value of the member named `key`, when this is an object. Where the key repeats, the
    /// last one counts, as in JavaScript, Python and Go.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = content else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var isNull: Bool {
        if case .null = content { true } else { false }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = content { value } else { nil }
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = content { value } else { nil }
    }

    public var stringValue: String? {
        if case .string(let value) = content { value } else { nil }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = content { value } else { nil }
    }

    public var objectValue: [JSONMember]? {
        if case .object(let value) = content { value } else { nil }
    }

    /// `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"` or `"object"`, for messages.
    public var kindName: String {
        switch content {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Compact JSON text.
    public var description: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.text
    }
}

/// One member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue
    /// The absolute offset of the key's opening quote; 0 for members built in code.
    public var keyOffset: Int

    public init(key: String, value: JSONValue, keyOffset: Int = 0) {
        self.key = key
        self.value = value
        self.keyOffset = keyOffset
    }

    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}
