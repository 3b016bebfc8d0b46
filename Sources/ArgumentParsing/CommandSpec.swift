/// One option a command accepts, described once: the parser, the help text and the suggestions
/// for misspelled options all read this table.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable {
        /// Present or absent: `--quiet`.
        case flag
        /// Takes a value: `--format json`, `--format=json`, `-o report.html`.
        case value(name: String)
    }

    /// Every spelling, e.g. `["-r", "--read"]`. The first long name is the option's key.
    public let names: [String]
    public let kind: Kind
    public let help: String
    /// Whether the option may be given several times (`--keylog a --keylog b`).
    public let repeatable: Bool
    /// Values the option accepts; empty means any.
    public let choices: [String]

    public init(_ names: [String], _ kind: Kind = .flag, repeatable: Bool = false, choices: [String] = [], help: String) {
        precondition(!names.isEmpty && names.allSatisfy { $0.hasPrefix("-") }, "option names start with '-'")
        self.names = names
        self.kind = kind
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }

    /// The name results are stored under: the first `--long` name, else the first name.
    public var key: String { names.first { $0.hasPrefix("--") } ?? names[0] }

    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }
}

/// A command: its name, what it does, the options and positional arguments it takes, and the
/// paragraphs its `--help` prints after the option table.
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    /// The synopsis after the program and command name, e.g. `[options] [capture ...]`.
    public let usage: String
    public let options: [OptionSpec]
    /// Names the positional arguments in help, e.g. `capture`; nil when the command takes none.
    public let positionalName: String?
    /// How many positional arguments at most (nil: any number).
    public let maximumPositionals: Int?
    public let details: String

    public init(
        name: String, summary: String, usage: String, options: [OptionSpec], positionalName: String? = nil,
        maximumPositionals: Int? = nil, details: String = ""
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.positionalName = positionalName
        self.maximumPositionals = maximumPositionals
        self.details = details
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }
}
