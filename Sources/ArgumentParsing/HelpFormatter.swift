/// Renders `--help` text from the same table the parser reads, so the two cannot disagree.
public enum HelpFormatter {
    public static func help(for command: CommandSpec, program: String) -> String {
        var lines = ["usage: \(program) \(command.name) \(command.usage)", "", command.summary]
        if !command.options.isEmpty {
            lines += ["", "options:"] + optionTable(command.options)
        }
        for paragraphs in [command.details, command.sharedDetails] where !paragraphs.isEmpty {
            lines += ["", paragraphs]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The program's own help: its synopses, what it does, the commands, the common options and
    /// the sections marked for it.
    public static func help(for program: ProgramSpec) -> String {
        var lines = program.usage.enumerated().map { index, usage in
            (index == 0 ? "usage: " : "       ") + "\(program.name) \(usage)"
        }
        lines += ["", program.description, ""]
        lines.append(program.defaultCommand.map { "commands (\($0) when none is named):" } ?? "commands:")
        lines += table(program.commands.map { ($0.name, $0.summary) }, maximumWidth: 30)
        var options = program.commonOptions
        options += program.programOptions.filter { option in !options.contains { $0.key == option.key } }
        if !options.isEmpty {
            lines += ["", program.commonOptions.isEmpty ? "options:" : "common options (each command's --help lists its own):"]
            lines += optionTable(options)
        }
        for section in program.sections where section.inProgramHelp {
            lines += ["", section.title.lowercased() + ":"]
            for (index, block) in section.blocks.enumerated() {
                if index > 0 { lines.append("") }
                switch block {
                case .paragraph(let text): lines.append(text)
                case .definitions(let definitions): lines += table(definitions.map { ($0.term, $0.text) }, maximumWidth: 30)
                case .example(let command, let comment): lines += ["  \(command)", "      \(comment)"]
                case .references(let pages): lines.append("  " + pages.joined(separator: ", "))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the help says of an option after its names: its text, the values it accepts and
    /// whether it may be repeated. The manual page says the same.
    static func description(of option: OptionSpec) -> String {
        var help = option.help
        if !option.choices.isEmpty { help += " (\(option.choices.joined(separator: "|")))" }
        if option.repeatable { help += "; repeatable" }
        return help
    }

    /// `-r, --read FILE`: the option's names and the name of its value.
    static func label(_ option: OptionSpec) -> String {
        let names = option.names.joined(separator: ", ")
        return option.valueName.map { "\(names) \($0)" } ?? names
    }

    private static func optionTable(_ options: [OptionSpec]) -> [String] {
        table(options.map { (label($0), description(of: $0)) }, maximumWidth: 30)
    }

    /// Two columns, the first as wide as its widest entry up to `maximumWidth`; a longer entry
    /// has its text on the next line.
    private static func table(_ rows: [(String, String)], maximumWidth: Int) -> [String] {
        let width = min(rows.map(\.0.count).max() ?? 0, maximumWidth)
        let indent = String(repeating: " ", count: width + 4)
        return rows.flatMap { term, text -> [String] in
            // A text of several lines continues under its first.
            let textLines = text.split(separator: "\n").map { $0.drop { $0 == " " } }
            var lines = textLines.dropFirst().map { indent + $0 }
            if term.count > width {
                lines.insert(contentsOf: ["  \(term)", indent + (textLines.first ?? "")], at: 0)
            } else {
                lines.insert("  " + term + String(repeating: " ", count: width - term.count + 2) + (textLines.first ?? ""), at: 0)
            }
            return lines
        }
    }
}
