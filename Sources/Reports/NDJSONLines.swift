import HAPEvents
import HAPJSON

/// An end-of-run JSON document: one object, on one line, that names the schema and the command,
/// then holds the members `body` writes.
func writeJSONDocument(command: String, to output: ReportOutput, reservingCapacity: Int = 4096, _ body: (inout JSONWriter) -> Void) {
    var writer = JSONWriter(reservingCapacity: reservingCapacity)
    writer.beginObject()
    writer.member("schema", EventJSON.schema)
    writer.member("command", command)
    body(&writer)
    writer.endObject()
    output.write(writer.text + "\n")
}

/// An end-of-run NDJSON document written line by line: a header naming the schema and the
/// command, then one object per line, each tagged with its `type`.
struct NDJSONLines {
    let output: ReportOutput

    func header(command: String) {
        line("header") { writer in
            writer.member("schema", EventJSON.schema)
            writer.member("command", command)
        }
    }

    func line(_ type: String, _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.beginObject()
        writer.member("type", type)
        body(&writer)
        writer.endObject()
        output.write(writer.text + "\n")
    }
}
