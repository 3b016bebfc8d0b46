import ArgumentParsing

/// A `hapscope` command: its table entry (options, help) and what it does.
///
/// Commands are listed in `Command.all`; a new one is one more entry there and a file with its
/// `run`.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Invocation) throws(CommandFailure) -> ExitStatus

    var name: String { spec.name }

    /// Every command, in the order `hapscope --help` lists them. The first is the default.
    static let all: [Command] = [
        .summary, .discover, .pairing, .tree, .timeline, .http, .stats, .responses, .events, .audit, .diff, .decrypt, .extract,
        .check, .tlv, .live,
    ]

    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }
}
