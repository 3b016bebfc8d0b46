import ArgumentParsing
import Foundation
import HAPCore
import Reports

extension Command {
    static let update = OptionSpec(["--update"], help: "write the decode as the new expectation instead of comparing")

    private static let checkOptions = [update] + Options.analysis.filter {
        ![Options.interface, Options.count, Options.duration, Options.format, Options.output, Options.showKeys, Options.read]
            .map(\.key).contains($0.key)
    }

    static let check = Command(spec: CommandSpec(
        name: "check",
        summary: "Regression-test captures: decode each and compare it with its expected decode.",
        usage: "[--update] [options] capture ...", options: checkOptions, positionalName: "capture",
        details: """
            For each capture DIR/NAME.pcap (or .pcapng), the key log DIR/NAME.keylog is used when it
            exists (with any --keylog given), and the decode — the whole event stream and the
            audit's findings, exactly what 'hapscope events --format ndjson' prints — is compared
            with DIR/expected/NAME.ndjson. A difference is shown as the lines that differ, with
            line numbers. --update writes the expectations instead (creating DIR/expected/).
            Record a capture of your firmware once, check its expected decode into your
            repository, and run 'hapscope check' in CI: any change in what hapscope sees fails.

            exit status: 0 every decode matches; 1 one differs or has no expectation; 2 usage or
            input error.

            \(Options.analysisDetails)
            """)) { invocation throws(CommandFailure) in
        let captures = invocation.arguments.positionals
        guard !captures.isEmpty else { throw CommandFailure("check needs at least one capture") }
        var status = ExitStatus.success
        for capture in captures {
            let outcome = try CaptureCheck(capture: capture, invocation: invocation).run()
            status = max(status, outcome)
        }
        return status
    }
}

extension ExitStatus: Comparable {
    static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One capture of `hapscope check`.
struct CaptureCheck {
    let capture: String
    let invocation: Invocation

    /// How many differing lines are shown before the rest is summarised.
    static let shownDifferences = 12

    private var name: String {
        let file = SystemInterface.baseName(capture)
        for suffix in [".pcapng", ".pcap", ".cap"] where file.hasSuffix(suffix) { return String(file.dropLast(suffix.count)) }
        return file
    }

    private var directory: String { (capture as NSString).deletingLastPathComponent }
    private var keyLogPath: String { (directory as NSString).appendingPathComponent(name + ".keylog") }
    private var expectationPath: String { ((directory as NSString).appendingPathComponent("expected") as NSString).appendingPathComponent(name + ".ndjson") }

    func run() throws(CommandFailure) -> ExitStatus {
        let decoded = try decode()
        let output = FileOutput(flushesEveryRecord: true)
        defer { output.flush() }
        if invocation.arguments.has(Command.update.key) {
            do {
                try FileManager.default.createDirectory(atPath: (expectationPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(decoded.utf8).write(to: URL(fileURLWithPath: expectationPath))
            } catch {
                throw CommandFailure("\(expectationPath): cannot write: \(error.localizedDescription)")
            }
            output.write("updated \(expectationPath)\n")
            return .success
        }
        guard SystemInterface.fileExists(expectationPath) else {
            output.write("FAIL \(capture): no expected decode at \(expectationPath) ('hapscope check --update \(capture)' writes it)\n")
            return .findings
        }
        let expected = String(decoding: try SystemInterface.readFile(expectationPath, limit: 1 << 30), as: UTF8.self)
        guard expected != decoded else {
            output.write("ok   \(capture) (\(decoded.split(separator: "\n").count) lines)\n")
            return .success
        }
        output.write("FAIL \(capture): the decode differs from \(expectationPath)\n")
        output.write(Self.difference(expected: expected, actual: decoded))
        return .findings
    }

    /// The event stream and findings as `hapscope events --format ndjson` writes them.
    private func decode() throws(CommandFailure) -> String {
        var configuration = try invocation.analysisConfiguration()
        if SystemInterface.fileExists(keyLogPath) {
            let bytes = try SystemInterface.readFile(keyLogPath, limit: 64 << 20)
            do {
                try configuration.keyLog.add(parsing: String(decoding: bytes, as: UTF8.self), source: SystemInterface.baseName(keyLogPath))
            } catch {
                throw CommandFailure("\(keyLogPath):\(error.line): \(error.message)")
            }
        }
        let reader = try AnalysisRun.openReader([capture], invocation: invocation)
        let buffer = TextBuffer()
        let report = EventLogReport(output: buffer, settings: ReportSettings(format: .ndjson), command: "events")
        let outcome = AnalysisRun(invocation: invocation, configuration: configuration).run(reader, into: report)
        guard outcome.status == .success else { throw CommandFailure("\(capture): the capture could not be read whole") }
        return buffer.text
    }

    /// The lines between the longest common prefix and suffix, numbered as in each file.
    static func difference(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let removed = old[prefix ..< old.count - suffix]
        let added = new[prefix ..< new.count - suffix]
        var lines: [String] = ["  first difference at line \(prefix + 1):"]
        for (offset, line) in removed.prefix(shownDifferences).enumerated() {
            lines.append("  - \(prefix + 1 + offset): \(TerminalText.sanitized(String(line.prefix(300))))")
        }
        if removed.count > shownDifferences { lines.append("  - … \(removed.count - shownDifferences) more expected lines") }
        for (offset, line) in added.prefix(shownDifferences).enumerated() {
            lines.append("  + \(prefix + 1 + offset): \(TerminalText.sanitized(String(line.prefix(300))))")
        }
        if added.count > shownDifferences { lines.append("  + … \(added.count - shownDifferences) more decoded lines") }
        return lines.joined(separator: "\n") + "\n"
    }
}
