import HAPJSON

/// Where a value sits in a JSON document: object keys and array indexes from the root, written
/// `accessories[1].services[0].characteristics[2].value`.
///
/// The text is also the syntax of `--ignore` patterns (`IgnorePattern`), so a path printed in a
/// report can be pasted into a pattern as it is. Keys made of letters, digits and `_-#$@` are
/// written bare; any other key is written as a JSON string in brackets (`headers["Content-Type"]`
/// needs none, `txt["c.d"]` does).
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    public enum Segment: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public private(set) var segments: [Segment]

    public init(_ segments: [Segment] = []) {
        self.segments = segments
    }

    /// The document itself, or the record itself.
    public static let root = FieldPath()

    public var isRoot: Bool { segments.isEmpty }

    public func appending(_ key: String) -> FieldPath {
        var path = self
        path.segments.append(.key(key))
        return path
    }

    public func appending(_ index: Int) -> FieldPath {
        var path = self
        path.segments.append(.index(index))
        return path
    }

    public func appending(_ other: FieldPath) -> FieldPath {
        var path = self
        path.segments += other.segments
        return path
    }

    /// The path of what contains this one; the root for the root.
    public var parent: FieldPath {
        FieldPath(Array(segments.dropLast()))
    }

    /// The text form, empty for the root.
    public var description: String {
        var text = ""
        for segment in segments {
            switch segment {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isBareKey(key):
                text += text.isEmpty ? key : "." + key
            case .key(let key):
                text += "[\(JSONValue.string(key))]"
            }
        }
        return text
    }

    /// Whether `key` can be written without quotes: it cannot be mistaken for a wildcard or a
    /// separator, and reads the same on every terminal.
    static func isBareKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte)
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }
}
