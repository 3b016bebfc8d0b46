import ArgumentParsing

/// A small program whose table has what the writers must handle: a default command, options of
/// every value kind, one option name described differently by two commands, help text with a
/// backslash, a leading dot and quote, an indented block, text beyond ASCII, and sections.
enum SampleProgram {
    static let read = OptionSpec(["-r", "--read"], .value(name: "FILE"), valueKind: .file, repeatable: true, help: "read FILE [it's a capture]")
    static let readFormat = OptionSpec(["--format"], .value(name: "FORMAT"), choices: ["text", "json"], help: "the format")
    static let limit = OptionSpec(
        ["--limit"], .value(name: "NAME=VALUE"), valueKind: .assignment(names: ["a.one", "a.two", "b"]), repeatable: true,
        help: "change a limit")
    static let interface = OptionSpec(["-i", "--interface"], .value(name: "IFACE"), valueKind: .interface, help: "capture on IFACE")
    static let quiet = OptionSpec(["-q", "--quiet"], help: "say less")
    static let help = OptionSpec(["-h", "--help"], help: "show this help")
    static let output = OptionSpec(["-o", "--output"], .value(name: "FILE"), valueKind: .file, help: "write to FILE")
    static let writeFormat = OptionSpec(["--format"], .value(name: "FORMAT"), choices: ["text", "junit"], help: "the format")
    static let dryRun = OptionSpec(["--dry-run"], help: "write nothing")
    static let version = OptionSpec(["-V", "--version"], help: "print the version")

    static let readCommand = CommandSpec(
        name: "read", summary: "Read files → a report.", usage: "[options] [file ...]",
        options: [read, readFormat, limit, interface, quiet, help], positionalName: "file", positionalKind: .file,
        details: """
            Paths such as C:\\dir are read too.
            .dots at the start of a line are text
            'quotes too'

            examples:
              tool read a.pcap      one file
              tool read -q b.pcap   quietly
            """,
        sharedDetails: "shared: said once in the manual")

    static let writeCommand = CommandSpec(
        name: "write", summary: "Write a file.", usage: "[options] DIR", options: [output, writeFormat, dryRun, quiet, help],
        positionalName: "directory", positionalKind: .directory, maximumPositionals: 1)

    static let program = ProgramSpec(
        name: "tool", version: "1.2.3", summary: "reads and writes files", usage: ["[command] [options] [file ...]"],
        description: "tool reads files.\n\nIt writes them too.",
        commands: [readCommand, writeCommand], defaultCommand: "read", programOptions: [help, version],
        commonOptions: [read, quiet],
        sections: [
            ManualSection("ENVIRONMENT", inProgramHelp: true, [
                .definitions([.init("TOOL_HOME", "where tool keeps\nits files")]),
            ]),
            ManualSection("EXAMPLES", [.example(command: "tool read -r a.pcap", comment: "Read a file.")]),
            ManualSection("SEE ALSO", [.references(["tshark(1)", "pcap-filter(7)"])]),
        ])
}
