import HAPEvents
import HAPJSON

/// The JSON side of the reports that stream events (`events`, `live`, `discover`, `pairing`,
/// `timeline`, `http`), and the context every one of them shows.
///
/// NDJSON: a `header` line, then one line per event the report selects, plus the context events
/// (`input-opened`, `problem`, `input-ended`) where they occur. JSON: one object with the selected
/// events in `events` (problems too, when every event is selected) and the context in `inputs`,
/// `problems` and `totals` (docs/json.md).
final class EventStreamWriter {
    let output: ReportOutput
    let format: ReportFormat
    let command: String
    /// Whether every event is selected (`events`, `live`): the JSON `events` array then holds the
    /// problems too, as the NDJSON stream does.
    let selectsEveryEvent: Bool
    private var eventCount = 0
    private var inputs: [InputOpenedEvent] = []
    private var problems: [(event: HAPEvent, problem: CaptureProblem)] = []
    private var totals: InputSummary?
    private var began = false
    /// Problems kept for the JSON document's `problems`; more are counted in `problemsNotListed`.
    static let maximumProblemsKept = 10_000
    private var problemsLeftOut = 0

    init(output: ReportOutput, format: ReportFormat, command: String, selectsEveryEvent: Bool = false) {
        self.output = output
        self.format = format
        self.command = command
        self.selectsEveryEvent = selectsEveryEvent
    }

    /// Writes the start of the document (JSON) or the header line (NDJSON) before the first event.
    private func beginIfNeeded() {
        guard !began else { return }
        began = true
        switch format {
        case .ndjson:
            NDJSONLines(output: output).header(command: command)
            output.endOfRecord()
        case .json:
            var writer = JSONWriter(reservingCapacity: 64)
            writer.beginObject()
            writer.member("schema", EventJSON.schema)
            writer.member("command", command)
            writer.key("events")
            // The array stays open: events are written into it as they arrive.
            output.write(writer.text + "[")
        case .text:
            break
        }
    }

    /// Writes a selected event: an NDJSON line, or the next element of `events`.
    func write(_ event: HAPEvent, clock: CaptureClock) {
        beginIfNeeded()
        let text = EventJSON.encode(event, clock: clock)
        switch format {
        case .ndjson:
            output.write(text + "\n")
            output.endOfRecord()
        case .json:
            output.write(eventCount == 0 ? "\n" + text : ",\n" + text)
        case .text:
            return
        }
        eventCount += 1
    }

    /// Notes a context event; NDJSON writes it at once, JSON keeps it for the end.
    /// Returns whether the event was context.
    @discardableResult
    func noteContext(_ event: HAPEvent, clock: CaptureClock) -> Bool {
        switch event.kind {
        case .inputOpened(let input): inputs.append(input)
        case .problem(let problem):
            if problems.count < Self.maximumProblemsKept { problems.append((event, problem)) } else { problemsLeftOut += 1 }
            if selectsEveryEvent, format == .json { write(event, clock: clock) }
        case .inputEnded(let summary): totals = summary
        default: return false
        }
        if format == .ndjson {
            beginIfNeeded()
            output.write(EventJSON.encode(event, clock: clock) + "\n")
            output.endOfRecord()
        }
        return true
    }

    /// Ends the output: the JSON document is closed with the context and the findings, and NDJSON
    /// gets one line per finding. `findings` are the audit's, nil when it did not run.
    func finish(clock: CaptureClock, findings: [Finding]?) {
        beginIfNeeded()
        switch format {
        case .json:
            var writer = JSONWriter(reservingCapacity: 512)
            writer.beginObject()
            EventJSON.writeInputs(inputs, into: &writer)
            writer.member("firstPacketTime", clock.origin.map(CaptureClock.iso8601))
            writer.array("problems", problems) { writer, entry in
                EventJSON.write(entry.event, clock: clock, into: &writer)
            }
            if problemsLeftOut > 0 { writer.member("problemsNotListed", problemsLeftOut) }
            if let totals {
                writer.object("totals") { writer in EventJSON.writeTotals(totals, into: &writer) }
            }
            if let findings { FindingJSON.writeFindings(findings, clock: clock, into: &writer) }
            writer.endObject()
            // The members continue the object opened in `beginIfNeeded`: drop this one's braces.
            let members = writer.text.dropFirst().dropLast()
            output.write((eventCount == 0 ? "]" : "\n]") + (members.isEmpty ? "" : "," + members) + "}\n")
        case .ndjson:
            for finding in findings ?? [] { FindingJSON.writeLine(finding, clock: clock, to: output) }
        case .text:
            break
        }
    }
}
