import HAPJSON

/// A path, with wildcards, whose differences do not count: `hapscope check --ignore PATTERN`.
///
/// ```
/// pattern := [ record-type ":" ] path
/// path    := step ( "." step | "[" bracket "]" )*     (or start with "[" bracket "]")
/// step    := key | "*" | "**"
/// bracket := index | "*" | JSON string
/// ```
///
/// - `time` is the top-level member `time` of every record; `http-message:headers` the headers of
///   `http-message` records only (`*:` is every record type, as no prefix is).
/// - `*` is any one segment, a key or an index; `[*]` is any one index; `**` is any number of
///   segments, none included: `**.timestamp` is `timestamp` at any depth.
/// - Keys other than letters, digits and `_-#$@` are written as JSON strings in brackets,
///   `txt["c.d"]`, as `FieldPath` prints them.
/// - A pattern covers what is inside what it names: `accessories` ignores the whole tree, and
///   `mdns-query:**` ignores `mdns-query` records altogether (none is reported added or removed).
public struct IgnorePattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    /// The record type the pattern is limited to; nil for every type (no prefix, or `*:`).
    public let recordType: String?
    private let steps: [Step]

    private enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
        /// `*`: any one key or index.
        case anySegment
        /// `[*]`: any one index.
        case anyIndex
        /// `**`: any number of segments, zero included.
        case anyDepth
    }

    /// Why a pattern cannot be read, and where.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public let pattern: String
        /// The offset of the character in `pattern` (in UTF-8 bytes) where reading stopped.
        public let offset: Int
        public let reason: String

        public var description: String {
            "'\(pattern)' at character \(offset + 1): \(reason)"
        }
    }

    public var description: String { text }

    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        let bytes = Array(text.utf8)
        var position = 0
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes[..<colon].allSatisfy(Self.isRecordTypeByte) {
            let type = String(decoding: bytes[..<colon], as: UTF8.self)
            recordType = type == "*" ? nil : type
            position = colon + 1
        } else {
            recordType = nil
        }
        steps = try Self.steps(bytes, from: position, pattern: text)
    }

    private static func isRecordTypeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "*"):
            true
        default:
            false
        }
    }

    private static func steps(_ bytes: [UInt8], from start: Int, pattern: String) throws(SyntaxError) -> [Step] {
        func failure(_ reason: String, at offset: Int) -> SyntaxError {
            SyntaxError(pattern: pattern, offset: offset, reason: reason)
        }
        guard start < bytes.count else {
            throw failure(start == 0 ? "an empty pattern" : "no path after the record type (TYPE:** is every record of the type)", at: start)
        }
        var steps: [Step] = []
        var position = start
        var expectsStep = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "[") {
                let (step, end) = try bracket(bytes, at: position, pattern: pattern)
                steps.append(step)
                position = end
                expectsStep = false
                continue
            }
            if !expectsStep {
                guard byte == UInt8(ascii: ".") else { throw failure("expected '.' or '[' between steps", at: position) }
                position += 1
                guard position < bytes.count else { throw failure("a path cannot end with '.'", at: position) }
            }
            let stepStart = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "."), bytes[position] != UInt8(ascii: "[") {
                guard bytes[position] != UInt8(ascii: "]") else { throw failure("']' without '['", at: position) }
                position += 1
            }
            let word = bytes[stepStart ..< position]
            guard !word.isEmpty else { throw failure("an empty step", at: stepStart) }
            switch String(decoding: word, as: UTF8.self) {
            case "*": steps.append(.anySegment)
            case "**": steps.append(.anyDepth)
            case let key where key.contains("*"):
                throw failure("a wildcard stands for a whole step: write *, ** or [*]", at: stepStart)
            case let key: steps.append(.key(key))
            }
            expectsStep = false
        }
        return steps
    }

    /// `[3]`, `[*]` or `["any key"]` at `start`; the step and the offset after `]`.
    private static func bracket(_ bytes: [UInt8], at start: Int, pattern: String) throws(SyntaxError) -> (Step, Int) {
        let position = start + 1
        guard position < bytes.count else {
            throw SyntaxError(pattern: pattern, offset: position, reason: "'[' without ']'")
        }
        if bytes[position] == UInt8(ascii: "\"") {
            // A JSON string: find its closing quote, skipping escaped characters, and let the JSON
            // reader decode it.
            var end = position + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "]") else {
                throw SyntaxError(pattern: pattern, offset: min(end, bytes.count), reason: "a quoted key ends with \"]")
            }
            let key: String
            do {
                key = try JSONDocument(bytes: Array(bytes[position ... end])).root.stringValue ?? ""
            } catch {
                throw SyntaxError(pattern: pattern, offset: position + error.offset, reason: "the quoted key is not a JSON string: \(error.expected)")
            }
            return (.key(key), end + 2)
        }
        guard let close = bytes[position...].firstIndex(of: UInt8(ascii: "]")) else {
            throw SyntaxError(pattern: pattern, offset: bytes.count, reason: "'[' without ']'")
        }
        let inside = String(decoding: bytes[position ..< close], as: UTF8.self)
        if inside == "*" { return (.anyIndex, close + 1) }
        guard !inside.isEmpty, inside.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let index = Int(inside) else {
            throw SyntaxError(pattern: pattern, offset: position, reason: "brackets hold an index, * or a quoted key")
        }
        return (.index(index), close + 1)
    }

    // MARK: Matching

    /// Whether the pattern names `path` of a record of `recordType` (nil outside records, where
    /// only patterns without a record type apply).
    public func matches(_ path: FieldPath, recordType: String?) -> Bool {
        if let type = self.recordType, type != recordType { return false }
        return matches(path.segments)
    }

    /// Whether the pattern names a whole record of `recordType`, which then takes no part in the
    /// comparison.
    public func coversRecords(ofType recordType: String?) -> Bool {
        matches(.root, recordType: recordType)
    }

    /// Whether the steps match the segments exactly.
    private func matches(_ segments: [FieldPath.Segment]) -> Bool {
        // matched[j]: the steps from i on match segments j...; computed from the last step back.
        // O(steps × segments), whatever the number of `**`.
        var matched = [Bool](repeating: false, count: segments.count + 1)
        matched[segments.count] = true
        for step in steps.reversed() {
            var next = [Bool](repeating: false, count: segments.count + 1)
            if case .anyDepth = step {
                next[segments.count] = matched[segments.count]
                for j in stride(from: segments.count - 1, through: 0, by: -1) {
                    next[j] = matched[j] || next[j + 1]
                }
            } else {
                for j in 0 ..< segments.count {
                    next[j] = Self.step(step, matches: segments[j]) && matched[j + 1]
                }
            }
            matched = next
        }
        return matched[0]
    }

    private static func step(_ step: Step, matches segment: FieldPath.Segment) -> Bool {
        switch (step, segment) {
        case (.anySegment, _), (.anyIndex, .index): true
        case (.key(let key), .key(let name)): key == name
        case (.index(let index), .index(let position)): index == position
        default: false
        }
    }
}

extension [IgnorePattern] {
    /// Whether one of the patterns names `path` of a record of `recordType`.
    func ignores(_ path: FieldPath, recordType: String?) -> Bool {
        !isEmpty && contains { $0.matches(path, recordType: recordType) }
    }
}
