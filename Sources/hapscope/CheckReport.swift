import Differences
import HAPJSON
import JUnitXML
import Reports

/// What `hapscope check` writes: a line or a block per capture as each is done (text), or one
/// document for the run at the end (JSON, JUnit XML). The three carry the same differences: the
/// first `--max-differences` of each capture, and the counts of all.
final class CheckReport {
    enum Format: String, CaseIterable {
        case text
        case json
        case junit
    }

    private let format: Format
    private let output: FileOutput
    private var results: [CheckResult] = []

    init(format: Format, output: FileOutput) {
        self.format = format
        self.output = output
    }

    func add(_ result: CheckResult) {
        switch format {
        case .text:
            for line in Self.textLines(result) { output.write(TerminalText.sanitized(line) + "\n") }
            output.endOfRecord()
        case .json, .junit:
            results.append(result)
        }
    }

    func finish() {
        switch format {
        case .text: break
        case .json: output.write(json + "\n")
        case .junit: output.write(junit.xml)
        }
    }

    // MARK: Text

    /// ```
    /// ok   captures/bridge.pcap (91 records)
    /// FAIL captures/bridge.pcap: 1 difference from captures/expected/bridge.ndjson (expected → decoded)
    ///   line 37: accessory-database #43, connection 2
    ///     changed accessories[3].services[1].characteristics[0].value (4.9 On): false → true
    ///   1 difference in 1 record: 1 changed; by record type: accessory-database 1
    /// ```
    /// Errors and refused updates are on standard error only.
    static func textLines(_ result: CheckResult) -> [String] {
        switch result.outcome {
        case .matched(let records, let exact):
            return ["ok   \(result.capture) (\(records) records\(exact ? "" : ", equal but for what is ignored"))"]
        case .differs(let comparison):
            return ["FAIL \(result.capture): \(count(comparison)) from \(result.expectation) (expected → decoded)"]
                + DifferenceText.lines(comparison).map { "  " + $0 }
        case .missing:
            return ["FAIL \(result.capture): no expected decode at \(result.expectation) ('hapscope check --update \(result.capture)' writes it)"]
        case .created(let records):
            return ["created \(result.expectation) (\(records) records)"]
        case .unchanged(let records):
            return ["unchanged \(result.expectation) (\(records) records)"]
        case .updated(let comparison) where comparison.isEqual:
            return ["updated \(result.expectation): equal to the previous one but for what is ignored"]
        case .updated(let comparison):
            return ["updated \(result.expectation): \(count(comparison)) from the previous one (previous → new)"]
                + DifferenceText.lines(comparison).map { "  " + $0 }
        case .refused, .error:
            return []
        }
    }

    private static func count(_ comparison: NDJSONComparison) -> String {
        comparison.tally.total == 1 ? "1 difference" : "\(comparison.tally.total) differences"
    }

    // MARK: JSON

    /// `{"schema":…,"command":"check","captures":[{"capture":…,"expected":…,"outcome":…,
    /// "records":…,"differenceCounts":{…},"differences":[…],"omittedDifferences":…}],"status":…}`.
    private var json: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("schema")
        writer.string(EventJSON.schema)
        writer.key("command")
        writer.string("check")
        writer.key("captures")
        writer.beginArray()
        for result in results { Self.write(result, into: &writer) }
        writer.endArray()
        writer.key("status")
        writer.integer(Int64(results.map(\.status).max()?.rawValue ?? 0))
        writer.endObject()
        return writer.text
    }

    private static func write(_ result: CheckResult, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("capture")
        writer.string(result.capture)
        writer.key("expected")
        writer.string(result.expectation)
        writer.key("outcome")
        writer.string(outcomeName(result.outcome))
        if result.damaged {
            writer.key("damaged")
            writer.bool(true)
        }
        switch result.outcome {
        case .matched(let records, _), .created(let records), .unchanged(let records):
            writer.key("records")
            writer.integer(Int64(records))
        case .differs(let comparison), .updated(let comparison):
            writer.key("records")
            writer.integer(Int64(comparison.decodedRecordCount))
            writer.key("expectedRecords")
            writer.integer(Int64(comparison.expectedRecordCount))
            writer.key("differenceCounts")
            DifferenceJSON.write(comparison.tally, into: &writer)
            writer.key("differences")
            writer.beginArray()
            for record in comparison.differences { DifferenceJSON.write(record, into: &writer) }
            writer.endArray()
            writer.key("omittedDifferences")
            writer.integer(Int64(comparison.omittedDifferences))
        case .missing:
            break
        case .refused(let problems):
            writer.key("message")
            writer.string("did not decode cleanly: \(problems.description)")
        case .error(let message):
            writer.key("message")
            writer.string(message)
        }
        writer.endObject()
    }

    /// The stable name of an outcome in JSON.
    private static func outcomeName(_ outcome: CheckResult.Outcome) -> String {
        switch outcome {
        case .matched: "ok"
        case .differs: "differs"
        case .missing: "missing"
        case .created: "created"
        case .unchanged: "unchanged"
        case .updated: "updated"
        case .refused: "refused"
        case .error: "error"
        }
    }

    // MARK: JUnit

    /// One test case per capture: passed, failed with its differences, or in error.
    private var junit: JUnitReport {
        JUnitReport(name: "hapscope check", testCases: results.map { result in
            let outcome: JUnitReport.TestCase.Outcome = switch result.outcome {
            case .matched, .created, .unchanged, .updated:
                result.damaged ? .error(.init(message: "the capture is damaged", type: "damaged-capture", text: "the decode covers the packets before the damage")) : .passed
            case .differs(let comparison):
                .failed(.init(
                    message: "\(comparison.tally) from \(result.expectation)", type: "differences",
                    text: (["expected → decoded"] + DifferenceText.lines(comparison)).joined(separator: "\n")))
            case .missing:
                .failed(.init(message: "no expected decode at \(result.expectation)", type: "missing-expectation",
                              text: "'hapscope check --update \(result.capture)' writes it"))
            case .refused(let problems):
                .error(.init(message: "did not decode cleanly", type: "refused-update", text: problems.description))
            case .error(let message):
                .error(.init(message: message, type: "input", text: message))
            }
            return JUnitReport.TestCase(name: result.capture, className: "hapscope.check", outcome: outcome)
        })
    }
}
