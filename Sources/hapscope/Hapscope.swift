import ArgumentParsing
import Reports

/// The command line: picks the command, parses its options, runs it and turns the outcome into
/// an exit status, with every error as one line on standard error.
enum Hapscope {
    static let version = "0.1.0"

    /// Runs `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> ExitStatus {
        do {
            return try dispatch(arguments)
        } catch {
            StandardError.line("hapscope: \(error.message)")
            return error.status
        }
    }

    private static func dispatch(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
        guard let first = arguments.first else {
            StandardError.write(usage)
            return .usageOrInput
        }
        switch first {
        case "--version", "-V":
            FileOutput.writeToStandardOutput("hapscope \(version)\n")
            return .success
        case "--help", "-h":
            FileOutput.writeToStandardOutput(programHelp)
            return .success
        case "help":
            return try help(Array(arguments.dropFirst()))
        default:
            break
        }
        if let command = Command.named(first) {
            return try run(command, Array(arguments.dropFirst()))
        }
        if !first.hasPrefix("-"), looksLikeCommand(first) {
            var message = "unknown command '\(first)'"
            if let close = ArgumentParser.closest(to: first, among: Command.all.map(\.name) + ["help"]) {
                message += "; did you mean '\(close)'?"
            }
            throw CommandFailure(message + " (see 'hapscope --help')")
        }
        return try run(Command.all[0], arguments)
    }

    /// A first argument that reads like a word rather than a path, and names no file, was meant
    /// as a command: `hapscope sumary x.pcap` should say so rather than "sumary: no such file".
    private static func looksLikeCommand(_ word: String) -> Bool {
        !word.contains("/") && !word.contains(".") && !SystemInterface.fileExists(word)
    }

    private static func run(_ command: Command, _ arguments: [String]) throws(CommandFailure) -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, for: command.spec)
        } catch {
            throw CommandFailure(error.message)
        }
        if parsed.has(Options.help.key) {
            FileOutput.writeToStandardOutput(HelpFormatter.help(for: command.spec, program: "hapscope"))
            return .success
        }
        return try command.run(Invocation(command: command.spec, arguments: parsed))
    }

    /// `hapscope help`, `hapscope help COMMAND`, `hapscope help limits`.
    private static func help(_ topics: [String]) throws(CommandFailure) -> ExitStatus {
        guard let topic = topics.first else {
            FileOutput.writeToStandardOutput(programHelp)
            return .success
        }
        if topic == "limits" {
            FileOutput.writeToStandardOutput("limits (--limit NAME=VALUE; byte counts take k, M or G):\n\(LimitOption.helpTable)\n")
            return .success
        }
        guard let command = Command.named(topic) else {
            var message = "no help for '\(topic)': not a command"
            if let close = ArgumentParser.closest(to: topic, among: Command.all.map(\.name)) {
                message += "; did you mean '\(close)'?"
            }
            throw CommandFailure(message + " (see 'hapscope --help')")
        }
        FileOutput.writeToStandardOutput(HelpFormatter.help(for: command.spec, program: "hapscope"))
        return .success
    }

    static var usage: String {
        "usage: hapscope [command] [options] [capture ...]\n       hapscope --help for the commands and options\n"
    }

    static var programHelp: String {
        let width = Command.all.map(\.name.count).max() ?? 0
        let commands = Command.all.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.spec.summary
        }.joined(separator: "\n")
        return """
            usage: hapscope [command] [options] [capture ...]

            hapscope reads HomeKit Accessory Protocol traffic from pcap and pcapng captures, or from a
            live interface, and tells what happened: mDNS advertisements, pairing, encrypted sessions
            (with a key log), the accessory database and characteristic activity.

            commands (summary when none is named):
            \(commands)
              help      help for a command: hapscope help COMMAND, or hapscope COMMAND --help

            common options (each command's --help lists its own):
              -r, --read FILE         read a capture (- for standard input); the same as naming it
              --keylog FILE           decrypt with the secrets in FILE (docs/keylog.md); repeatable
              -f, --filter BPF        capture filter in libpcap syntax
              --format FORMAT         text (the default), json or ndjson (docs/json.md)
              -o, --output FILE       write the report to FILE
              --show-keys             show session keys; without it no secret is ever printed
              --limit NAME=VALUE      change a resource limit (hapscope help limits); repeatable
              -q, --quiet             no progress bar or notes on standard error
              --no-color              never color the text
              --no-progress           no progress bar
              -h, --help              help;  -V, --version  the version

            environment:
              HAPKEYLOGFILE   key logs to read as well as --keylog, separated by colons
              NO_COLOR        when set and not empty, no color (no-color.org)

            exit status: 0 success; 1 findings or failed checks where a command says so (tlv);
            2 usage or input error: unknown command or option, missing or unreadable file, bad key-log
            line, damaged capture (the packets before the damage are still analysed and reported).

            """
    }
}
