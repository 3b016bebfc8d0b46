import HAPJSON

/// Differences as lines for people: what `hapscope check` prints, what a failed expectation in
/// the test suite shows, and the text of JUnit failures.
///
/// Values are compact JSON, so control characters in strings come out escaped; names taken from
/// the records (accessory and characteristic names) are as the records have them, and a terminal
/// report sanitizes its lines.
public enum DifferenceText {
    /// The longest value shown; longer ones are cut, around their first difference for strings.
    public static let valueLength = 120

    /// `changed accessories[1].services[1].characteristics[0].value (2.9 On): false → true`.
    public static func line(_ difference: JSONDifference, terms: AccessoryTerms?) -> String {
        let named = terms.map { " (\($0))" } ?? ""
        switch difference.kind {
        case .moved:
            return "moved \(difference.path) → \(difference.newPath ?? .root)\(named)"
        case .added:
            return "added \(difference.path)\(named): \(value(difference.new))"
        case .removed:
            return "removed \(difference.path)\(named): \(value(difference.old))"
        default:
            let (old, new) = values(difference.old, difference.new)
            return "\(difference.kind) \(difference.path)\(named): \(old) → \(new)"
        }
    }

    /// `value: false → true`, `unit: added "celsius"`: a difference below the element at `base`.
    public static func memberChange(_ difference: JSONDifference, below base: FieldPath) -> String {
        let path = difference.path
        let relative = path.segments.starts(with: base.segments) ? FieldPath(Array(path.segments.dropFirst(base.segments.count))) : path
        switch difference.kind {
        case .moved: return "\(relative) moved to \(difference.newPath ?? .root)"
        case .added: return "\(relative) added: \(value(difference.new))"
        case .removed: return "\(relative) removed: \(value(difference.old))"
        default:
            let (old, new) = values(difference.old, difference.new)
            return "\(relative): \(old) → \(new)"
        }
    }

    /// The lines of one record's differences: a heading, and for a changed record one indented
    /// line per field difference kept.
    ///
    /// ```
    /// line 37: accessory-database #43, connection 2
    ///   changed accessories[1].services[1].characteristics[0].value (2.9 On): false → true
    /// line 41 added: characteristic #47, connection 2: {"type":"characteristic",…}
    /// line 39 → 41 moved: characteristic #47, connection 2
    /// ```
    public static func lines(_ record: RecordDifference, indent: String = "  ") -> [String] {
        switch record.change {
        case .changed:
            var lines = ["\(lineNumbers(record)): \(summary(record.record))"]
            for difference in record.fieldDifferences {
                lines.append(indent + line(difference, terms: record.terms(for: difference)))
            }
            if record.differenceCount > record.fieldDifferences.count {
                lines.append(indent + "… \(record.differenceCount - record.fieldDifferences.count) more in this record")
            }
            return lines
        case .added, .removed:
            let side = record.record
            let content = side.value == nil ? "not JSON (\(side.parseError ?? "unreadable")): \(excerpt(String(side.text)))" : excerpt(String(side.text))
            return ["\(lineNumbers(record)) \(record.change.rawValue): \(summary(side)): \(content)"]
        case .moved:
            return ["\(lineNumbers(record)) moved: \(summary(record.record))"]
        }
    }

    /// Every record difference kept, then a count of those left out and the counts by kind.
    public static func lines(_ comparison: NDJSONComparison, indent: String = "  ") -> [String] {
        var lines = comparison.differences.flatMap { Self.lines($0, indent: indent) }
        if comparison.omittedDifferences > 0 {
            lines.append("… \(comparison.omittedDifferences) more differences not shown")
        }
        if !comparison.isEqual {
            lines.append("\(comparison.tally); by record type: \(comparison.tally.recordTypesText)")
        }
        return lines
    }

    /// `line 37`, or `line 37 → 38` (expected → decoded) when the record is elsewhere, and always
    /// for a move.
    static func lineNumbers(_ record: RecordDifference) -> String {
        switch (record.expected?.line, record.decoded?.line) {
        case (let old?, let new?) where old != new || record.change == .moved: "line \(old) → \(new)"
        case (let line?, _), (nil, let line?): "line \(line)"
        case (nil, nil): "line ?"
        }
    }

    /// `accessory-database #43, connection 2`; `finding database/duplicate-iid`;
    /// `characteristic #47, connection 2, read 2.9 On`: what a record is, in a few words.
    public static func summary(_ record: NDJSONRecord) -> String {
        guard let value = record.value else { return "a line that is not JSON" }
        var heading = record.type ?? value.kindName
        if let rule = value["rule"]?.stringValue { heading += " " + rule }
        if let packet = record.packet { heading += " #" + AccessoryTerms.text(packet) }
        var words = [heading]
        if let connection = record.connection { words.append("connection " + AccessoryTerms.text(connection)) }
        if record.type == "characteristic", let terms = AccessoryTerms(path: .root, in: value, recordType: record.type) {
            words.append([value["kind"]?.stringValue, terms.description].compactMap { $0 }.joined(separator: " "))
        }
        return words.joined(separator: ", ")
    }

    /// A value as compact JSON, cut to `valueLength`; `absent` for none.
    public static func value(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        return excerpt(value.description)
    }

    /// Two values that differ; two long strings are shown from a little before where they first
    /// differ, so that the difference is in view.
    static func values(_ old: JSONValue?, _ new: JSONValue?) -> (String, String) {
        guard let oldText = old?.description, let newText = new?.description,
              old?.stringValue != nil, new?.stringValue != nil, max(oldText.count, newText.count) > valueLength else {
            return (value(old), value(new))
        }
        let common = zip(oldText, newText).prefix { $0 == $1 }.count
        let context = 20
        guard common > context else { return (value(old), value(new)) }
        return ("…" + excerpt(String(oldText.dropFirst(common - context))), "…" + excerpt(String(newText.dropFirst(common - context))))
    }

    /// `text`, cut to `valueLength` characters with `…`.
    public static func excerpt(_ text: String) -> String {
        text.count > valueLength ? String(text.prefix(valueLength)) + "…" : text
    }
}
