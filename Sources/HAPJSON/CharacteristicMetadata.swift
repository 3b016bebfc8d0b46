import HAPCatalog

/// What a characteristic declares about its values: the metadata fields of a characteristic in
/// `/accessories`, and of a `GET /characteristics` entry read with `meta=1` or `perms=1`.
/// Each field is nil when absent.
public struct CharacteristicMetadata: Hashable, Sendable {
    /// `perms`.
    public var permissions: CharacteristicPermissions?
    /// `perms` strings HAP does not define, as sent.
    public var unrecognizedPermissions: [String] = []
    /// nil when `format` is absent or not a HAP format (then see `unrecognizedFormat`).
    public var format: CharacteristicFormat?
    public var unrecognizedFormat: String?
    public var unit: CharacteristicUnit?
    public var unrecognizedUnit: String?
    public var minimumValue: JSONNumber?
    public var maximumValue: JSONNumber?
    public var minimumStep: JSONNumber?
    /// `maxLen`: the longest string value, in UTF-8 bytes.
    public var maximumLength: Int?
    /// `maxDataLen`: the longest `data` value, in bytes.
    public var maximumDataLength: Int?
    /// `valid-values`.
    public var validValues: [Int64]?
    /// `valid-values-range`, written as one `[start, end]` pair (HAP-NodeJS, esp-homekit) or a list
    /// of them.
    public var validValueRanges: [ClosedRange<Int64>]?
    /// `description`: the manufacturer's description.
    public var manufacturerDescription: String?

    public init() {}

    /// Reads `member` if it is a metadata field; false for other keys. A metadata field whose
    /// value is unusable is recorded and ignored.
    mutating func decode(
        _ member: JSONMember, path: @autoclosure () -> String, aid: UInt64?, iid: UInt64?, recorder: inout DiagnosticRecorder
    ) -> Bool {
        let value = member.value
        func invalid(_ expected: String) {
            recorder.recordInvalidField(member, path: path(), expected: expected, aid: aid, iid: iid)
        }
        /// Sets `field` to the value as `read` takes it, or records it as not `expected`.
        func set<Field>(_ field: WritableKeyPath<Self, Field?>, _ read: (JSONValue) -> Field?, _ expected: String) {
            guard let fieldValue = read(value) else { return invalid(expected) }
            self[keyPath: field] = fieldValue
        }
        switch member.key {
        case "perms":
            guard let elements = value.arrayValue, elements.allSatisfy({ $0.stringValue != nil }) else {
                invalid("an array of strings")
                break
            }
            var permissions: CharacteristicPermissions = []
            unrecognizedPermissions = []
            for name in elements.compactMap(\.stringValue) {
                if let permission = CharacteristicPermissions(wireName: name) {
                    permissions.insert(permission)
                } else {
                    unrecognizedPermissions.append(name)
                }
            }
            self.permissions = permissions
        case "format":
            guard let name = value.stringValue else { invalid("a string"); break }
            format = CharacteristicFormat(wireName: name)
            unrecognizedFormat = format == nil ? name : nil
        case "unit":
            guard let name = value.stringValue else { invalid("a string"); break }
            unit = CharacteristicUnit(wireName: name)
            unrecognizedUnit = unit == nil ? name : nil
        case "minValue": set(\.minimumValue, \.numberValue, "a number")
        case "maxValue": set(\.maximumValue, \.numberValue, "a number")
        case "minStep": set(\.minimumStep, \.numberValue, "a number")
        case "maxLen": set(\.maximumLength, \.hapLength, "a non-negative integer")
        case "maxDataLen": set(\.maximumDataLength, \.hapLength, "a non-negative integer")
        case "valid-values":
            guard let elements = value.arrayValue, case let integers = elements.compactMap(\.hapInteger),
                  integers.count == elements.count else {
                invalid("an array of integers")
                break
            }
            validValues = integers
        case "valid-values-range":
            guard let ranges = Self.validValueRanges(value) else {
                invalid("[start, end] or a list of [start, end] integer pairs")
                break
            }
            validValueRanges = ranges
        case "description": set(\.manufacturerDescription, \.stringValue, "a string")
        default:
            return false
        }
        return true
    }

    private static func validValueRanges(_ json: JSONValue) -> [ClosedRange<Int64>]? {
        func pair(_ json: JSONValue) -> ClosedRange<Int64>? {
            guard let bounds = json.arrayValue, bounds.count == 2,
                  let start = bounds[0].hapInteger, let end = bounds[1].hapInteger, start <= end else { return nil }
            return start ... end
        }
        if let single = pair(json) { return [single] }
        guard let elements = json.arrayValue, case let pairs = elements.compactMap(pair), pairs.count == elements.count else {
            return nil
        }
        return pairs
    }
}
