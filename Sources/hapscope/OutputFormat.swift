import Reports

/// What `--format` accepts.
///
/// The three formats every report writes map to `ReportFormat`. A format written by a report of
/// its own (the HTML report of `Sources/Reports/HTML/`) joins as a case here; the switch in
/// `reportFormat` then shows where its report is chosen instead (`Invocation.reportSettings`
/// and the commands' `makeReport`).
enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json
    case ndjson

    var reportFormat: ReportFormat {
        switch self {
        case .text: .text
        case .json: .json
        case .ndjson: .ndjson
        }
    }
}
