/// Parses a command's arguments against its `CommandSpec`.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, `-nvalue` for short options that
/// take a value, flags anywhere, `--` to end options, and `-` as a positional (standard input).
public enum ArgumentParser {
    public static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.addPositional(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = split(argument, command: command)
            guard let option = command.option(named: name) else {
                throw UsageError(unknownOptionMessage(name, command: command))
            }
            if !option.repeatable, result.has(option.key), !option.takesValue {
                continue
            }
            guard option.takesValue else {
                if inlineValue != nil {
                    throw UsageError("option \(name) takes no value")
                }
                result.add(option, value: nil)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("option \(name) needs a value (\(option.valueName ?? ""))")
            }
            if !option.choices.isEmpty, !option.choices.contains(value) {
                var message = "option \(name) takes one of \(option.choices.joined(separator: ", ")), not '\(value)'"
                if let close = closest(to: value, among: option.choices) { message += "; did you mean '\(close)'?" }
                throw UsageError(message)
            }
            result.add(option, value: value)
        }
        if let maximum = command.maximumPositionals, result.positionals.count > maximum {
            let extra = result.positionals[maximum]
            throw UsageError(
                maximum == 0
                    ? "\(command.name) takes no arguments, but got '\(extra)'"
                    : "\(command.name) takes at most \(maximum) \(command.positionalName ?? "argument")(s); '\(extra)' is one too many")
        }
        return result
    }

    /// `--format=json` → (`--format`, `json`); `-ofile` → (`-o`, `file`) when `-o` takes a value.
    private static func split(_ argument: String, command: CommandSpec) -> (String, String?) {
        if argument.hasPrefix("--") {
            if let equals = argument.firstIndex(of: "=") {
                return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            }
            return (argument, nil)
        }
        if argument.count > 2 {
            let name = String(argument.prefix(2))
            if let option = command.option(named: name), option.takesValue {
                return (name, String(argument.dropFirst(2)))
            }
        }
        return (argument, nil)
    }

    private static func unknownOptionMessage(_ name: String, command: CommandSpec) -> String {
        var message = "unknown option '\(name)' for \(command.name)"
        if let close = closest(to: name, among: command.options.flatMap(\.names)) {
            message += "; did you mean '\(close)'?"
        }
        return message + " (see 'hapscope \(command.name) --help')"
    }

    /// The candidate nearest to `word` by edit distance, if it is near enough to be a typo.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let tolerance = max(2, word.count / 3)
        return best.1 <= tolerance ? best.0 : nil
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
