/// A program: its commands and what is said around them, described once. `--help`, the manual
/// page and the shell completions are all written from it, so none can disagree with the parser.
public struct ProgramSpec: Sendable {
    public let name: String
    public let version: String
    /// What the program is, in a line: the manual's NAME.
    public let summary: String
    /// Synopses after the program's name, one a line: `[command] [options] [capture ...]`.
    public let usage: [String]
    /// What the program does, in paragraphs.
    public let description: String
    /// Every command, in the order help lists them.
    public let commands: [CommandSpec]
    /// The command run when the first argument names none; nil when one must be named.
    public let defaultCommand: String?
    /// What the program takes in place of a command: `--help`, `--version`.
    public let programOptions: [OptionSpec]
    /// The options `--help` lists as shared by the commands.
    public let commonOptions: [OptionSpec]
    /// The sections after the options: limits, environment, exit status, files, examples, see also.
    public let sections: [ManualSection]

    public init(
        name: String, version: String, summary: String, usage: [String], description: String, commands: [CommandSpec],
        defaultCommand: String?, programOptions: [OptionSpec], commonOptions: [OptionSpec] = [], sections: [ManualSection] = []
    ) {
        precondition(defaultCommand.map { name in commands.contains { $0.name == name } } ?? true, "the default is a command")
        self.name = name
        self.version = version
        self.summary = summary
        self.usage = usage
        self.description = description
        self.commands = commands
        self.defaultCommand = defaultCommand
        self.programOptions = programOptions
        self.commonOptions = commonOptions
        self.sections = sections
    }

    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }
}

/// A section of the manual page after the options (`EXIT STATUS`, `ENVIRONMENT`, ...), some of
/// which `--help` prints too.
public struct ManualSection: Sendable {
    public enum Block: Sendable {
        /// Text, filled; lines indented by two spaces are kept as they are, as in help.
        case paragraph(String)
        /// Terms and what they mean: `NO_COLOR` — when set and not empty, no color.
        case definitions([Definition])
        /// A command line and what it does.
        case example(command: String, comment: String)
        /// Other manual pages: `tshark(1)`.
        case references([String])
    }

    public struct Definition: Sendable {
        public let term: String
        public let text: String
        public init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// The manual's heading, in capitals: `EXIT STATUS`.
    public let title: String
    public let blocks: [Block]
    /// Whether the program's `--help` prints the section too (its title in lower case).
    public let inProgramHelp: Bool

    public init(_ title: String, inProgramHelp: Bool = false, _ blocks: [Block]) {
        self.title = title
        self.blocks = blocks
        self.inProgramHelp = inProgramHelp
    }
}
