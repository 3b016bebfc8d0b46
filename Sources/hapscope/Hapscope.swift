import ArgumentParsing
import BuildInfo
import Reports

/// The command line: picks the command, parses its options, runs it and turns the outcome into
/// an exit status, with every error as one line on standard error.
enum Hapscope {
    /// What `--version` prints: the version and the commit of the build ("unknown" when built
    /// outside a git checkout).
    static var versionLine: String { "hapscope \(BuildInfo.version) (commit \(BuildInfo.commit))" }

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
            FileOutput.writeToStandardOutput(versionLine + "\n")
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
        return try command.run(try Invocation(command: command.spec, arguments: parsed))
    }

    /// `hapscope help`, `hapscope help COMMAND`, `hapscope help limits`, and the manual page and
    /// completions (`--man`, `--completion bash|zsh`).
    private static func help(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, for: helpCommand)
        } catch {
            throw CommandFailure(error.message)
        }
        let generated = [manualPage.key, completion.key].filter(parsed.has)
        if generated.count + parsed.positionals.count > 1 {
            throw CommandFailure("help takes one of a topic, --man or --completion (see 'hapscope help --help')")
        }
        if parsed.has(Options.help.key) {
            FileOutput.writeToStandardOutput(HelpFormatter.help(for: helpCommand, program: "hapscope"))
            return .success
        }
        if parsed.has(manualPage.key) {
            FileOutput.writeToStandardOutput(ManualPage.render(program))
            return .success
        }
        switch parsed.value(completion.key) {
        case "bash"?:
            FileOutput.writeToStandardOutput(BashCompletion.script(for: program))
            return .success
        case "zsh"?:
            FileOutput.writeToStandardOutput(ZshCompletion.script(for: program))
            return .success
        default:
            break
        }
        guard let topic = parsed.positionals.first else {
            FileOutput.writeToStandardOutput(programHelp)
            return .success
        }
        if topic == "limits" {
            FileOutput.writeToStandardOutput(Options.limitDetails + "\n")
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

    static var programHelp: String { HelpFormatter.help(for: program) }
}
