import HAPEvents
/// How a report is written (docs/json.md describes the two JSON forms). Every report writes all
/// three.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Aligned text for a terminal or a pager, colored only when the output is a terminal.
    case text
    /// One JSON document, complete when the input ends.
    case json
    /// One JSON object per line, written as the analysis goes, for jq and log stores.
    case ndjson
}
