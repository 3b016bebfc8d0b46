import Reports

/// What `--format` accepts.
///
/// The three formats every report writes map to `ReportFormat`; html is written by the HTML
/// report (`Sources/Reports/HTML/`), chosen in the commands that offer it.
enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json
    case ndjson
    /// The self-contained HTML report (`summary` and `audit` only).
    case html

    /// The format of the text reports; html has a report of its own, so it maps to none.
    var reportFormat: ReportFormat {
        switch self {
        case .text, .html: .text
        case .json: .json
        case .ndjson: .ndjson
        }
    }
}
