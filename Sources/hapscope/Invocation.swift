import ArgumentParsing
import HAPCore
import HAPCrypto
import HAPEvents
import Reports

/// One run of a command: what the user asked for, read into the values the layers below take.
struct Invocation {
    let command: CommandSpec
    let arguments: ParsedArguments

    var isQuiet: Bool { arguments.has(Options.quiet.key) }

    var format: OutputFormat {
        arguments.value(Options.format.key).flatMap(OutputFormat.init(rawValue:)) ?? .text
    }

    /// The captures to read: `-r` files first, then the ones named, in order.
    var captureFiles: [String] {
        arguments.values(Options.read.key) + arguments.positionals
    }

    /// Where the report goes, and whether each record is written out as soon as it is complete
    /// (always for `live`; for a terminal, so streamed commands show events as they come).
    func makeOutput(streaming: Bool) throws(CommandFailure) -> FileOutput {
        if let path = arguments.value(Options.output.key), path != "-" {
            return try FileOutput(path: path, flushesEveryRecord: streaming)
        }
        return FileOutput(flushesEveryRecord: streaming || SystemInterface.isTerminal(1))
    }

    /// Color only on a terminal, and never when the user opted out (`--no-color`, or `NO_COLOR`
    /// set to anything but the empty string, per no-color.org).
    var textStyle: TextStyle {
        let toFile = arguments.value(Options.output.key).map { $0 != "-" } ?? false
        let optedOut = arguments.has(Options.noColor.key) || !(SystemInterface.environment("NO_COLOR") ?? "").isEmpty
            || SystemInterface.environment("TERM") == "dumb"
        return TextStyle(usesColor: !toFile && !optedOut && SystemInterface.isTerminal(1))
    }

    var reportSettings: ReportSettings {
        ReportSettings(format: format.reportFormat, style: textStyle)
    }

    /// A progress bar on a terminal's standard error, unless asked not to.
    var showsProgress: Bool {
        !isQuiet && !arguments.has(Options.noProgress.key) && SystemInterface.isTerminal(2)
    }

    /// The key logs, setup code and ID, limits and key display the user asked for.
    func analysisConfiguration() throws(CommandFailure) -> AnalysisConfiguration {
        var configuration = AnalysisConfiguration(revealsSessionKeys: arguments.has(Options.showKeys.key))
        configuration.keyLog = try loadKeyLogs()
        if let code = arguments.value(Options.setupCode.key) {
            do {
                configuration.setupCode = try SetupCode(code)
            } catch {
                throw CommandFailure("--setup-code: \(error.reason)")
            }
        }
        if let id = arguments.value(Options.setupID.key) {
            do {
                configuration.setupID = try SetupID(id)
            } catch {
                throw CommandFailure("--setup-id: \(error.reason)")
            }
        }
        for limit in arguments.values(Options.limit.key) {
            try LimitOption.apply(limit, to: &configuration.limits)
        }
        return configuration
    }

    /// The title of an HTML report: the captures' file names, or the interface.
    var reportTitle: String {
        if let interface = arguments.value(Options.interface.key) { return "hapscope: live capture on \(interface)" }
        let names = captureFiles.map { $0 == "-" ? "standard input" : SystemInterface.baseName($0) }
        return "hapscope: " + (names.isEmpty ? "capture" : names.joined(separator: ", "))
    }

    /// Every `--keylog` file, then those `HAPKEYLOGFILE` names (colon-separated). A file that
    /// cannot be read or has a bad line stops the command: a key that silently fails to load
    /// costs an afternoon. Sources are named by file name only, so that reports of the same
    /// input do not depend on where the key log lives.
    func loadKeyLogs() throws(CommandFailure) -> KeyLog {
        var paths = arguments.values(Options.keyLog.key)
        if let variable = SystemInterface.environment("HAPKEYLOGFILE") {
            paths += variable.split(separator: ":").map(String.init)
        }
        var keyLog = KeyLog()
        for path in paths {
            let bytes = try SystemInterface.readFile(path, limit: 64 << 20)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CommandFailure("\(path): a key log is text, and this file is not UTF-8")
            }
            do {
                try keyLog.add(parsing: text, source: SystemInterface.baseName(path))
            } catch {
                // Standard error names the file as the user gave it; events use its name only.
                throw CommandFailure("\(path):\(error.line): \(error.message)")
            }
        }
        return keyLog
    }
}
