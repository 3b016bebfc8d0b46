import HAPJSON

/// One line of an NDJSON text, read as a JSON record: hapscope's events (`type`, `packet`,
/// `connection`, …) or any other object a line.
public struct NDJSONRecord: Sendable {
    /// The line number, from 1.
    public let line: Int
    /// The line as written.
    public let text: Substring
    /// The record; nil when the line is not JSON.
    public let value: JSONValue?
    /// Why the line is not JSON, with the byte offset in the line.
    public let parseError: String?

    /// Reads line `line` (from 1) whose text is `text`.
    public init(line: Int, text: Substring) {
        self.line = line
        self.text = text
        do {
            value = try JSONDocument(bytes: Array(text.utf8)).root
            parseError = nil
        } catch {
            value = nil
            parseError = "\(error.code) at byte \(error.offset): expected \(error.expected)"
        }
    }

    /// The record's `type` (`accessory-database`), when it is an object with one.
    public var type: String? { value?["type"]?.stringValue }
    /// The packet whose evidence completed the event.
    public var packet: JSONValue? { value?["packet"] }
    /// The HAP connection's number, as in `hapscope stats`.
    public var connection: JSONValue? { value?["connection"] }

    /// The lines of `text`: one record a line; a final line break ends the last record and does
    /// not start another. Split on the byte 0x0A, as NDJSON is, not on characters (which would
    /// also take `\r\n` as one break, and cost a grapheme search through megabytes).
    public static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while let newline = utf8[index...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(text[start ..< newline])
            index = utf8.index(after: newline)
            start = index
        }
        if start != utf8.endIndex { lines.append(text[start...]) }
        return lines
    }
}
