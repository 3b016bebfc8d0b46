import HAPAnalysis
import HAPJSON

// The JSON form of findings and rules. Field names are stable: CI pipelines and reports key
// on them. A connection is `{"id":2,"controller":"10.77.0.1:49202","accessory":"10.77.0.2:51826"}`;
// a time is Unix seconds with the capture's microseconds.

extension Finding {
    /// Writes the finding as one object:
    ///
    /// `{"rule":"pairing/unverified-request","severity":"high","title":…,"explanation":…,"reference":…,
    /// "connection":{…}|null,"accessory":"1A:2B:3C:4D:5E:6F"|null,"evidence":[…],"omittedEvidence":0}`
    ///
    /// Each evidence entry is `{"packet":34|null,"time":1796012651.251953|null,"connection":{…}|null,
    /// "detail":…,"occurrences":1}`, with `"lastPacket"` and `"lastTime"` added when the
    /// observation recurred.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("rule")
        writer.string(rule.id)
        writer.key("severity")
        writer.string(severity.name)
        writer.key("title")
        writer.string(title)
        writer.key("explanation")
        writer.string(explanation)
        writer.key("reference")
        writer.string(reference)
        writer.key("connection")
        Self.write(connection, to: &writer)
        writer.key("accessory")
        if let accessory { writer.string(accessory) } else { writer.null() }
        writer.key("evidence")
        writer.beginArray()
        for item in evidence { item.writeJSON(to: &writer) }
        writer.endArray()
        writer.key("omittedEvidence")
        writer.integer(Int64(omittedEvidenceCount))
        writer.endObject()
    }

    static func write(_ connection: ConnectionInfo?, to writer: inout JSONWriter) {
        guard let connection else {
            writer.null()
            return
        }
        writer.beginObject()
        writer.key("id")
        writer.integer(Int64(connection.id))
        writer.key("controller")
        writer.string(connection.controller.description)
        writer.key("accessory")
        writer.string(connection.accessory.description)
        writer.endObject()
    }
}

extension Evidence {
    func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("packet")
        if let packet { writer.integer(Int64(packet.number)) } else { writer.null() }
        writer.key("time")
        if let time { writer.double(time.timeInterval) } else { writer.null() }
        writer.key("connection")
        Finding.write(connection, to: &writer)
        writer.key("detail")
        writer.string(detail)
        writer.key("occurrences")
        writer.integer(Int64(occurrences))
        if occurrences > 1, let lastPacket {
            writer.key("lastPacket")
            writer.integer(Int64(lastPacket.number))
            writer.key("lastTime")
            writer.double(lastPacket.timestamp.timeInterval)
        }
        writer.endObject()
    }
}

extension Sequence<Finding> {
    /// Writes the findings as one JSON array, in sequence order.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginArray()
        for finding in self { finding.writeJSON(to: &writer) }
        writer.endArray()
    }
}

extension AuditRule {
    /// Writes the rule as one object: `{"rule":"pairing/unverified-request","category":"pairing",
    /// "slug":"unverified-request","severity":"high","severityReason":…,"title":…,"explanation":…,
    /// "reference":…}`.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        for (key, value) in [
            ("rule", id), ("category", category.rawValue), ("slug", slug), ("severity", severity.name),
            ("severityReason", severityReason), ("title", title), ("explanation", explanation), ("reference", reference),
        ] {
            writer.key(key)
            writer.string(value)
        }
        writer.endObject()
    }
}
