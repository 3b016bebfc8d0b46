import ArgumentParsing
import HAPCore
import HAPCrypto
import HAPEvents
import Reports

/// One run of a command: what the user asked for, read into the values the layers below take.
struct Invocation {
    let command: CommandSpec
    let arguments: ParsedArguments
    /// How many jobs analyse capture files (`--jobs N`): by default the cores available. Read
    /// once, here, so that a bad count stops the command before anything is read.
    let jobs: Int

    init(command: CommandSpec, arguments: ParsedArguments) throws(CommandFailure) {
        self.command = command
        self.arguments = arguments
        jobs = try Self.jobs(arguments.value(Options.jobs.key))
    }

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

    private static func jobs(_ text: String?) throws(CommandFailure) -> Int {
        guard let text else { return SystemInterface.availableCores }
        guard let count = Int(text), (1...Self.maximumJobs).contains(count) else {
            throw CommandFailure("--jobs takes a number of jobs from 1 to \(Self.maximumJobs), not '\(text)'")
        }
        return count
    }

    /// Jobs at most: a thread each, and their queues.
    static let maximumJobs = 256

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
        configuration.suppliedDatabases = try suppliedDatabases(configuration)
        return configuration
    }

    /// The databases of every `--accessories` file: a dump's, or each accessory's last
    /// `/accessories` in a capture, read with the run's key logs and the one beside it. A dump
    /// names no accessory and so serves any: two of them would leave it to chance which one
    /// types a connection.
    private func suppliedDatabases(_ configuration: AnalysisConfiguration) throws(CommandFailure) -> [SuppliedDatabase] {
        let paths = arguments.values(Options.accessories.key)
        let dumps = paths.filter(DumpInput.isDump)
        guard dumps.count <= 1 else {
            throw CommandFailure("--accessories: \(dumps.joined(separator: ", ")) are dumps, which name no accessory; give one, "
                + "or captures, whose databases are matched by device ID")
        }
        var supplied: [SuppliedDatabase] = []
        for path in paths {
            var reading = configuration
            if !DumpInput.isDump(path), !arguments.has(Options.noKeyLog.key), let keyLog = Self.keyLogBeside(path) {
                reading.keyLog.merge(try Self.readKeyLog(keyLog))
            }
            do {
                supplied += try DatabaseSnapshot.read(path, forceDump: false, configuration: reading).databases.map(\.supplied)
            } catch {
                throw CommandFailure("--accessories \(error.message)")
            }
        }
        return supplied
    }

    /// Says on standard error which key logs were found beside the captures, once the captures
    /// are being read (so that an error before stays the only line).
    func announceKeyLogsBesideCaptures() {
        guard !isQuiet, !arguments.has(Options.noKeyLog.key), command.name != "check" else { return }
        let given = arguments.values(Options.keyLog.key) + (SystemInterface.environment("HAPKEYLOGFILE")?.split(separator: ":").map(String.init) ?? [])
        for (capture, keyLog) in besideKeyLogs(excluding: given) {
            StandardError.line("hapscope: reading the key log \(keyLog) found beside \(capture) (--no-keylog: not)")
        }
    }

    /// The title of an HTML report: the captures' file names, or the interface.
    var reportTitle: String {
        if let interface = arguments.value(Options.interface.key) { return "hapscope: live capture on \(interface)" }
        let names = captureFiles.map { $0 == "-" ? "standard input" : SystemInterface.baseName($0) }
        return "hapscope: " + (names.isEmpty ? "capture" : names.joined(separator: ", "))
    }

    /// Every `--keylog` file, then those `HAPKEYLOGFILE` names (colon-separated), then the key log
    /// beside each capture (`NAME.keylog` for `NAME.pcap`), unless `--no-keylog` or the command
    /// reads key logs per capture itself (`check`). A file that cannot be read or has a bad line
    /// stops the command: a key that silently fails to load costs an afternoon. Sources are named
    /// by file name only, so that reports of the same input do not depend on where the key log
    /// lives.
    func loadKeyLogs() throws(CommandFailure) -> KeyLog {
        var paths = arguments.values(Options.keyLog.key)
        if let variable = SystemInterface.environment("HAPKEYLOGFILE") {
            paths += variable.split(separator: ":").map(String.init)
        }
        let beside = arguments.has(Options.noKeyLog.key) || command.name == "check" ? [] : besideKeyLogs(excluding: paths)
        var keyLog = KeyLog()
        for path in paths + beside.map(\.keyLog) {
            keyLog.merge(try Self.readKeyLog(path))
        }
        return keyLog
    }

    /// The key logs beside the captures, `NAME.keylog` for `NAME.pcap`, `NAME.btsnoop` and the
    /// other `captureSuffixes`, that exist and are not among `given`.
    private func besideKeyLogs(excluding given: [String]) -> [(capture: String, keyLog: String)] {
        let known = Set(given.map(SystemInterface.canonicalPath))
        var found: [(String, String)] = []
        for capture in captureFiles {
            guard let keyLog = Self.keyLogBeside(capture), !known.contains(SystemInterface.canonicalPath(keyLog)),
                  !found.contains(where: { $0.1 == keyLog }) else { continue }
            found.append((capture, keyLog))
        }
        return found
    }

    /// `NAME.keylog` for a capture `NAME.pcap` (or another of `captureSuffixes`), when it exists.
    private static func keyLogBeside(_ capture: String) -> String? {
        guard let keyLog = keyLogPath(for: capture) else { return nil }
        return SystemInterface.fileExists(keyLog) ? keyLog : nil
    }

    /// The suffixes of the capture files a key log sits beside: pcap and pcapng, and the
    /// Bluetooth LE containers, btsnoop (`btmon -w`, Android) and PacketLogger (`.pklg`), whose
    /// recordings share one key log with the pcap of the same traffic (captures/ble/README.md).
    private static let captureSuffixes = [".pcapng", ".pcap", ".cap", ".btsnoop", ".pklg"]

    /// `NAME.keylog` for a capture `NAME` with one of `captureSuffixes`, whether or not it
    /// exists; nil for standard input and other names.
    static func keyLogPath(for capture: String) -> String? {
        guard capture != "-", let suffix = captureSuffixes.first(where: capture.hasSuffix) else { return nil }
        return String(capture.dropLast(suffix.count)) + ".keylog"
    }

    /// One key log file, parsed.
    static func readKeyLog(_ path: String) throws(CommandFailure) -> KeyLog {
        let bytes = try SystemInterface.readFile(path, limit: 64 << 20)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure("\(path): a key log is text, and this file is not UTF-8")
        }
        do {
            let keyLog = try KeyLog(parsing: text, source: SystemInterface.baseName(path))
            // Standard error names the file as the user gave it; the report's problems by its name.
            for warning in keyLog.warnings { StandardError.line("hapscope: warning: \(path):\(warning.line): \(warning.message)") }
            return keyLog
        } catch {
            // Standard error names the file as the user gave it; events use its name only.
            throw CommandFailure("\(path):\(error.line): \(error.message)")
        }
    }
}
