import Differences
import Foundation
import HAPJSON

/// The recorded material the tests compare: the expected decodes of the bundled captures
/// (`captures/expected/`, the project's own recordings) and the real accessory databases kept
/// with HAPJSON's tests (`Tests/HAPJSONTests/Fixtures/real-databases/`, from Home Assistant Core,
/// Apache-2.0: see the README there).
enum Corpus {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `captures/expected/NAME.ndjson`.
    static func expectedDecode(_ name: String) throws -> String {
        try String(contentsOf: packageDirectory.appendingPathComponent("captures/expected/\(name).ndjson"), encoding: .utf8)
    }

    /// The lines of an expected decode, to change a copy of.
    static func expectedLines(_ name: String) throws -> [String] {
        try expectedDecode(name).split(separator: "\n").map(String.init)
    }

    /// Lines joined back into an NDJSON text.
    static func text(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// A real accessory database (`Tests/HAPJSONTests/Fixtures/real-databases/NAME.json`).
    static func realDatabase(_ name: String) throws -> JSONValue {
        let url = packageDirectory.appendingPathComponent("Tests/HAPJSONTests/Fixtures/real-databases/\(name).json")
        return try JSONDocument(bytes: Array(try Data(contentsOf: url))).root
    }

    /// `text` parsed as JSON.
    static func json(_ text: String) throws -> JSONValue {
        try JSONDocument(bytes: Array(text.utf8)).root
    }
}

extension JSONValue {
    /// A copy with the value at `path` changed by `change` (a member that is not there is added;
    /// an index that is not there changes nothing).
    func modifying(_ path: [FieldPath.Segment], _ change: (inout JSONValue) -> Void) -> JSONValue {
        guard let first = path.first else {
            var copy = self
            change(&copy)
            return copy
        }
        let rest = Array(path.dropFirst())
        switch (first, content) {
        case (.key(let key), .object(var members)):
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = members[index].value.modifying(rest, change)
            } else {
                members.append(JSONMember(key: key, value: JSONValue.null.modifying(rest, change)))
            }
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = elements[index].modifying(rest, change)
            return .array(elements)
        default:
            return self
        }
    }

    /// A copy with the member `key` of the object at `path` set to `value`.
    func setting(_ path: [FieldPath.Segment], _ key: String, to value: JSONValue) -> JSONValue {
        modifying(path + [.key(key)]) { $0 = value }
    }
}
