/// What an argument's value names, so that shell completions can offer the right things; the parser
/// accepts any text (or one of an option's `choices`) whatever the kind.
public enum ValueKind: Sendable, Equatable {
    /// Free text: nothing to offer.
    case text
    /// A file path.
    case file
    /// A directory path.
    case directory
    /// A network interface to capture on.
    case interface
    /// `NAME=VALUE` with NAME one of these: `--limit tcp.connections=100`.
    case assignment(names: [String])
    /// One of these words: `hapscope help COMMAND`.
    case oneOf([String])
}

/// One option a command accepts, described once: the parser, the help text, the manual page, the
/// shell completions and the suggestions for misspelled options all read this table.
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Present or absent: `--quiet`.
        case flag
        /// Takes a value: `--format json`, `--format=json`, `-o report.html`.
        case value(name: String)
    }

    /// Every spelling, e.g. `["-r", "--read"]`. The first long name is the option's key.
    public let names: [String]
    public let kind: Kind
    /// What the value names (for a `.value` option).
    public let valueKind: ValueKind
    public let help: String
    /// Whether the option may be given several times (`--keylog a --keylog b`).
    public let repeatable: Bool
    /// Values the option accepts; empty means any.
    public let choices: [String]

    public init(
        _ names: [String], _ kind: Kind = .flag, valueKind: ValueKind = .text, repeatable: Bool = false,
        choices: [String] = [], help: String
    ) {
        precondition(!names.isEmpty && names.allSatisfy { $0.hasPrefix("-") }, "option names start with '-'")
        self.names = names
        self.kind = kind
        self.valueKind = valueKind
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }

    /// The name results are stored under: the first `--long` name, else the first name.
    public var key: String { names.first { $0.hasPrefix("--") } ?? names[0] }

    /// The name of the value in help and synopses (`FILE`), nil for a flag.
    public var valueName: String? {
        if case .value(let name) = kind { return name }
        return nil
    }

    var takesValue: Bool { valueName != nil }

    /// What a completion offers for the value: the choices when there are some, else what its
    /// kind names.
    var completedValues: ValueKind { choices.isEmpty ? valueKind : .oneOf(choices) }
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
    /// What the positional arguments name, for completions.
    public let positionalKind: ValueKind
    /// How many positional arguments at most (nil: any number).
    public let maximumPositionals: Int?
    /// What this command's help says after the option table.
    public let details: String
    /// Paragraphs that several commands end their help with (how captures are read, the limits,
    /// the exit status): `--help` prints them after `details`; the manual page, which has sections
    /// of its own for them, leaves them out rather than repeat them for every command.
    public let sharedDetails: String

    public init(
        name: String, summary: String, usage: String, options: [OptionSpec], positionalName: String? = nil,
        positionalKind: ValueKind = .text, maximumPositionals: Int? = nil, details: String = "", sharedDetails: String = ""
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.positionalName = positionalName
        self.positionalKind = positionalKind
        self.maximumPositionals = maximumPositionals
        self.details = details
        self.sharedDetails = sharedDetails
    }

    /// Whether the command takes positional arguments at all.
    public var takesPositionals: Bool { positionalName != nil && maximumPositionals != 0 }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }
}
