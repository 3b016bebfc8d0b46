/// Renders `--help` text from the same table the parser reads, so the two cannot disagree.
public enum HelpFormatter {
    public static func help(for command: CommandSpec, program: String) -> String {
        var lines = ["usage: \(program) \(command.name) \(command.usage)", "", command.summary]
        if !command.options.isEmpty {
            lines += ["", "options:"]
            let labels = command.options.map(label)
            let width = min(labels.map(\.count).max() ?? 0, 30)
            for (option, text) in zip(command.options, labels) {
                var help = option.help
                if !option.choices.isEmpty { help += " (\(option.choices.joined(separator: "|")))" }
                if option.repeatable { help += "; repeatable" }
                if text.count > width {
                    lines.append("  \(text)")
                    lines.append("  " + String(repeating: " ", count: width) + "  " + help)
                } else {
                    lines.append("  " + text + String(repeating: " ", count: width - text.count) + "  " + help)
                }
            }
        }
        if !command.details.isEmpty {
            lines += ["", command.details]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func label(_ option: OptionSpec) -> String {
        let names = option.names.joined(separator: ", ")
        if case .value(let name) = option.kind { return "\(names) \(name)" }
        return names
    }
}
