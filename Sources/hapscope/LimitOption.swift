import ArgumentParsing
import HAPEvents
import WireParsing

/// `--limit NAME=VALUE` and `hapscope help limits`, over the registry of bounds the analysis
/// shares with the reports (`AnalysisLimit.all`, docs/cli.md "Limits").
enum LimitOption {
    /// Applies `NAME=VALUE` to `limits`.
    static func apply(_ argument: String, to limits: inout AnalysisLimits) throws(CommandFailure) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw CommandFailure("--limit takes NAME=VALUE, not '\(argument)' (see 'hapscope help limits')")
        }
        let name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        guard let limit = AnalysisLimit.named(LimitName(name)) else {
            var message = "unknown limit '\(name)'"
            if let close = ArgumentParser.closest(to: name, among: names) {
                message += "; did you mean '\(close)'?"
            }
            throw CommandFailure(message + " (see 'hapscope help limits')")
        }
        guard let value = limit.parse(text) else {
            throw CommandFailure("--limit \(name) takes \(limit.unitDescription), not '\(text)'")
        }
        guard value >= limit.minimum else {
            throw CommandFailure("--limit \(name) must be at least \(limit.minimum), not \(value)")
        }
        limit.set(value, in: &limits)
    }

    /// Every limit's name, as `--limit` takes it.
    static var names: [String] { AnalysisLimit.all.map(\.name.rawValue) }

    /// The limits as the manual page lists them: name, then meaning and default.
    static var definitions: [ManualSection.Definition] {
        let defaults = AnalysisLimits()
        return AnalysisLimit.all.map { limit in
            ManualSection.Definition(limit.name.rawValue, "\(limit.help) (default \(limit.describe(limit.value(in: defaults))))")
        }
    }

    /// The table `--help` and `hapscope help limits` print: name, default and meaning.
    static var helpTable: String {
        let defaults = AnalysisLimits()
        let values = AnalysisLimit.all.map { $0.describe($0.value(in: defaults)) }
        let nameWidth = AnalysisLimit.all.map(\.name.rawValue.count).max() ?? 0
        let valueWidth = values.map(\.count).max() ?? 0
        return zip(AnalysisLimit.all, values).map { limit, value in
            "  " + limit.name.rawValue + String(repeating: " ", count: nameWidth - limit.name.rawValue.count + 2)
                + value + String(repeating: " ", count: valueWidth - value.count + 2) + limit.help
        }.joined(separator: "\n")
    }
}
