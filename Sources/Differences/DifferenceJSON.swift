import HAPJSON

/// Differences as JSON, for `hapscope check --format json` and programs that read it.
///
/// One object per difference: a changed record gives one per field difference, each carrying
/// its record, so that a difference can be read on its own.
///
/// ```
/// {"kind":"changed","record":{"type":"accessory-database","packet":43,"connection":2,
///  "expectedLine":37,"decodedLine":37},"path":"accessories[1].services[1].characteristics[0].value",
///  "old":false,"new":true,"accessory":{"aid":2,"iid":9,"name":"On","text":"2.9 On"},
///  "text":"changed accessories[1]…value (2.9 On): false → true"}
/// {"kind":"record-added","record":{"type":"characteristic","packet":47,"connection":2,
///  "decodedLine":41},"new":{…the record…},"text":"line 41 added: …"}
/// ```
public enum DifferenceJSON {
    /// Writes the differences of `record` kept, as values of the array being written.
    public static func write(_ record: RecordDifference, into writer: inout JSONWriter) {
        switch record.change {
        case .changed:
            for difference in record.fieldDifferences {
                writer.beginObject()
                writer.key("kind")
                writer.string(difference.kind.rawValue)
                writeRecord(record, into: &writer)
                writer.key("path")
                writer.string(difference.path.description)
                if let newPath = difference.newPath, newPath != difference.path {
                    writer.key("newPath")
                    writer.string(newPath.description)
                }
                if let old = difference.old {
                    writer.key("old")
                    writer.write(old)
                }
                if let new = difference.new {
                    writer.key("new")
                    writer.write(new)
                }
                let terms = record.terms(for: difference)
                if let terms { writeTerms(terms, into: &writer) }
                writer.key("text")
                writer.string(DifferenceText.line(difference, terms: terms))
                writer.endObject()
            }
        case .added, .removed, .moved:
            writer.beginObject()
            writer.key("kind")
            writer.string(record.kind.rawValue)
            writeRecord(record, into: &writer)
            if record.change == .removed, let expected = record.expected {
                writer.key("old")
                writeContent(expected, into: &writer)
            }
            if record.change == .added, let decoded = record.decoded {
                writer.key("new")
                writeContent(decoded, into: &writer)
            }
            writer.key("text")
            writer.string(DifferenceText.lines(record).joined(separator: "\n"))
            writer.endObject()
        }
    }

    /// One change between two accessory databases (`hapscope diff --format json`):
    /// `{"kind":"renumbered","element":"characteristic","old":{…terms},"new":{…terms},
    /// "oldPath":"accessories[1]…","newPath":"…","differences":[{"path":…,"old":…,"new":…}],"text":…}`.
    public static func write(_ change: DatabaseChange, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("kind")
        writer.string(change.kind.rawValue)
        writer.key("element")
        writer.string(change.element.rawValue)
        for (key, terms) in [("old", change.old), ("new", change.new)] {
            guard let terms else { continue }
            writer.key(key)
            writeTermsObject(terms, into: &writer)
        }
        for (key, path) in [("oldPath", change.oldPath), ("newPath", change.newPath)] {
            guard let path else { continue }
            writer.key(key)
            writer.string(path.description)
        }
        if !change.differences.isEmpty {
            writer.key("differences")
            writer.beginArray()
            for difference in change.differences {
                writer.beginObject()
                writer.key("kind")
                writer.string(difference.kind.rawValue)
                writer.key("path")
                writer.string(difference.path.description)
                for (key, value) in [("old", difference.old), ("new", difference.new)] {
                    guard let value else { continue }
                    writer.key(key)
                    writer.write(value)
                }
                writer.endObject()
            }
            writer.endArray()
        }
        writer.key("text")
        writer.string(change.description)
        writer.endObject()
    }

    /// `{"total":3,"records":2,"byKind":{"changed":1,…},"byRecordType":{"characteristic":2,…}}`.
    public static func write(_ tally: DifferenceTally, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("total")
        writer.integer(Int64(tally.total))
        writer.key("records")
        writer.integer(Int64(tally.records))
        writer.key("byKind")
        writer.beginObject()
        for (kind, count) in tally.byKind.sorted(by: { $0.key < $1.key }) {
            writer.key(kind.rawValue)
            writer.integer(Int64(count))
        }
        writer.endObject()
        writer.key("byRecordType")
        writer.beginObject()
        for (type, count) in tally.byRecordType.sorted(by: { $0.key < $1.key }) {
            writer.key(type)
            writer.integer(Int64(count))
        }
        writer.endObject()
        writer.endObject()
    }

    /// `"record":{"type":…,"packet":…,"connection":…,"expectedLine":…,"decodedLine":…}`.
    private static func writeRecord(_ record: RecordDifference, into writer: inout JSONWriter) {
        writer.key("record")
        writer.beginObject()
        if let type = record.recordType {
            writer.key("type")
            writer.string(type)
        }
        for member in ["packet", "connection", "rule"] {
            if let value = record.record.value?[member] {
                writer.key(member)
                writer.write(value)
            }
        }
        if let line = record.expected?.line {
            writer.key("expectedLine")
            writer.integer(Int64(line))
        }
        if let line = record.decoded?.line {
            writer.key("decodedLine")
            writer.integer(Int64(line))
        }
        writer.endObject()
    }

    /// The record itself, or its line as a string when it is not JSON.
    private static func writeContent(_ record: NDJSONRecord, into writer: inout JSONWriter) {
        if let value = record.value {
            writer.write(value)
        } else {
            writer.string(String(record.text))
        }
    }

    private static func writeTerms(_ terms: AccessoryTerms, into writer: inout JSONWriter) {
        writer.key("accessory")
        writeTermsObject(terms, into: &writer)
    }

    /// `{"element":"characteristic","aid":2,"iid":9,"name":"On","text":"2.9 On"}`.
    private static func writeTermsObject(_ terms: AccessoryTerms, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("element")
        writer.string(terms.element.rawValue)
        for (key, number) in [("aid", terms.aid), ("iid", terms.iid)] {
            guard let number else { continue }
            writer.key(key)
            if let value = UInt64(number) { writer.unsignedInteger(value) } else { writer.string(number) }
        }
        if let name = terms.name {
            writer.key("name")
            writer.string(name)
        }
        writer.key("text")
        writer.string(terms.description)
        writer.endObject()
    }
}
