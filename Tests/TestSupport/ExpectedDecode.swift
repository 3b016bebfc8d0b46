import Differences
import Testing

/// An expectation that a decode (NDJSON) equals an expected one, which on failure lists the
/// differences record by record and field by field, as `hapscope check` does, instead of two long
/// lines.
public enum ExpectedDecode {
    /// How many differences a failure shows.
    public static let shownDifferences = 20

    /// The failure's text when `decoded` differs from `expected` (the file `name`), else nil.
    public static func failureMessage(decoded: String, expected: String, name: String, ignoring: [IgnorePattern] = []) -> String? {
        let comparison = NDJSONComparison(
            expected: expected, decoded: decoded, options: .init(ignoring: ignoring, retainedDifferences: shownDifferences))
        guard !comparison.isEqual else { return nil }
        return (["the decode differs from \(name) (expected → decoded):"] + DifferenceText.lines(comparison).map { "  " + $0 })
            .joined(separator: "\n")
    }

    /// Records an issue when `decoded` differs from `expected`.
    public static func expect(
        _ decoded: String, equals expected: String, name: String, ignoring: [IgnorePattern] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if let message = failureMessage(decoded: decoded, expected: expected, name: name, ignoring: ignoring) {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}
