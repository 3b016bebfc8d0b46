import ArgumentParsing
import Differences
import Foundation
import HAPCore
import Reports

extension Command {
    static let update = OptionSpec(
        ["--update"], help: "write each decode as its new expectation, and print what that changed")
    static let force = OptionSpec(
        ["--force"], help: "with --update: write it even when the capture did not decode cleanly")
    static let ignore = OptionSpec(
        ["--ignore"], .value(name: "PATH"), repeatable: true,
        help: "leave out differences at PATH ([TYPE:]path with *, ** and [*]; see below)")
    static let maxDifferences = OptionSpec(
        ["--max-differences"], .value(name: "N"),
        help: "show at most N differences per capture (\(CheckSettings.defaultMaximumDifferences) by default; all for every one)")
    static let checkFormat = OptionSpec(
        ["--format"], .value(name: "FORMAT"), choices: CheckReport.Format.allCases.map(\.rawValue),
        help: "the output format, text by default; junit is JUnit XML for CI systems")

    private static let checkOptions = [update, force, ignore, maxDifferences, checkFormat] + Options.analysis(
        excluding: Options.liveCapture + [Options.format, Options.showKeys, Options.read])

    static let check = Command(spec: CommandSpec(
        name: "check",
        summary: "Regression-test captures: decode each and compare it with its expected decode.",
        usage: "[--update [--force]] [options] capture ...", options: checkOptions, positionalName: "capture", positionalKind: .file,
        details: """
            For each capture DIR/NAME.pcap (or .pcapng), the key log DIR/NAME.keylog is used when it
            exists (with any --keylog given; DIR/NAME.btsnoop reads it too, and is compared with
            DIR/expected/NAME.btsnoop.ndjson), and the decode — the whole event stream and the
            audit's findings, exactly what 'hapscope events --format ndjson' prints — is compared
            with DIR/expected/NAME.ndjson, record by record and field by field. Records are aligned
            first, so an inserted record is one difference and the rest still line up. Each
            difference names its record (line, type, packet, connection), the JSON path of the
            member, the old and new values (expected → decoded), and the accessory's own terms
            where there are some (4.9 On); records added, removed and moved are said so; the counts
            come last. Record a capture of your firmware once, check its expected decode into your
            repository, and run 'hapscope check' in CI: any change in what hapscope sees fails.

            --ignore PATH leaves out what is expected to vary: a path as the differences print it,
            with * for any one key or index, [*] for any index, ** for any depth, and TYPE: to
            limit it to one record type. What a path names is left out with all it holds.
              --ignore time                     every record's time
              --ignore '**.timestamp'           timestamp at any depth
              --ignore 'characteristic:value'   the values read, written and evented
              --ignore 'accessory-database:accessories[*].services[*].characteristics[*].value'
                                                the values in the accessory database
              --ignore 'mdns-query:**'          mdns-query records altogether

            --update writes the expectations instead (creating DIR/expected/) and prints what changed
            from the previous ones. It refuses (exit status 2) a capture that did not decode cleanly
            — problem or session-problem records, or a damaged file — unless --force is given.

            exit status: 0 every decode matches; 1 one differs or has no expectation; 2 usage or
            input error, a refused update, or a damaged capture (it is still compared).
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        let captures = invocation.arguments.positionals
        guard !captures.isEmpty else { throw CommandFailure("check needs at least one capture") }
        let settings = try CheckSettings(invocation.arguments)
        let output = try invocation.makeOutput(streaming: true)
        let report = CheckReport(format: settings.format, output: output)
        var status = ExitStatus.success
        for capture in captures {
            let result: CheckResult
            do throws(CommandFailure) {
                result = try CaptureCheck(capture: capture, invocation: invocation, settings: settings).run()
            } catch {
                StandardError.line("hapscope: \(error.message)")
                result = CheckResult(capture: capture, expectation: CaptureCheck.expectationPath(for: capture), outcome: .error(error.message))
            }
            report.add(result)
            status = max(status, result.status)
        }
        report.finish()
        output.flush()
        if let failure = output.failure { throw CommandFailure(failure) }
        return status
    }
}

extension ExitStatus: Comparable {
    static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What `check` was asked to do, read from its options once.
struct CheckSettings {
    static let defaultMaximumDifferences = 20

    let format: CheckReport.Format
    let updates: Bool
    let forces: Bool
    let ignoring: [IgnorePattern]
    /// Differences shown per capture; nil for all.
    let maximumDifferences: Int?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        format = arguments.value(Command.checkFormat.key).flatMap(CheckReport.Format.init(rawValue:)) ?? .text
        updates = arguments.has(Command.update.key)
        forces = arguments.has(Command.force.key)
        guard updates || !forces else { throw CommandFailure("--force goes with --update: it writes an expectation that would be refused") }
        var patterns: [IgnorePattern] = []
        for text in arguments.values(Command.ignore.key) {
            do {
                patterns.append(try IgnorePattern(text))
            } catch {
                throw CommandFailure("--ignore \(error)")
            }
        }
        ignoring = patterns
        switch arguments.value(Command.maxDifferences.key) {
        case nil: maximumDifferences = Self.defaultMaximumDifferences
        case "all": maximumDifferences = nil
        case let text?:
            guard let count = Int(text), count >= 0 else {
                throw CommandFailure("--max-differences: '\(text)' is not a number of differences (or all)")
            }
            maximumDifferences = count
        }
    }

    var comparisonOptions: NDJSONComparison.Options {
        NDJSONComparison.Options(ignoring: ignoring, retainedDifferences: maximumDifferences)
    }
}

/// How one capture of `check` came out.
struct CheckResult {
    enum Outcome {
        /// The decode matches its expectation (`exact`: byte for byte, not only but for what is
        /// ignored).
        case matched(records: Int, exact: Bool)
        case differs(NDJSONComparison)
        /// There is no expectation to compare with.
        case missing
        /// `--update` wrote an expectation where there was none.
        case created(records: Int)
        /// `--update` found the expectation already equal to the decode.
        case unchanged(records: Int)
        /// `--update` rewrote the expectation; what changed from the previous one.
        case updated(NDJSONComparison)
        /// `--update` without `--force` found problems in the decode and wrote nothing.
        case refused(DecodeProblems)
        /// The capture or its expectation could not be read.
        case error(String)
    }

    let capture: String
    let expectation: String
    let outcome: Outcome
    /// Whether the capture file was damaged (its decode covers what came before the damage).
    var damaged = false

    var status: ExitStatus {
        let status: ExitStatus = switch outcome {
        case .matched, .created, .unchanged, .updated: .success
        case .differs, .missing: .findings
        case .refused, .error: .usageOrInput
        }
        return damaged ? .usageOrInput : status
    }
}

/// What keeps a decode from being clean, so that `--update` does not make it the expectation
/// unasked: `problem` and `session-problem` records (a damaged capture file is a `problem` too).
struct DecodeProblems {
    static let recordTypes = ["problem", "session-problem"]

    /// How many records of each problem type the decode has.
    private(set) var counts: [String: Int] = [:]
    /// The first of them, in a few words.
    private(set) var first: String?

    init(decode: String) {
        for line in NDJSONRecord.lines(of: decode) {
            // hapscope's NDJSON writes `type` first; only these lines are parsed.
            guard let type = Self.recordTypes.first(where: { line.hasPrefix(#"{"type":"\#($0)""#) }) else { continue }
            counts[type, default: 0] += 1
            if first == nil {
                let record = NDJSONRecord(line: 0, text: line)
                let what = [record.value?["kind"]?.stringValue, record.value?["message"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
                first = DifferenceText.summary(record) + (what.isEmpty ? "" : ", " + what)
            }
        }
    }

    var isClean: Bool { counts.isEmpty }

    /// `5 session-problem records (the first: session-problem #64, connection 2, …)`.
    var description: String {
        let counted = Self.recordTypes.compactMap { type in counts[type].map { "\($0) \(type) record\($0 == 1 ? "" : "s")" } }
        return counted.joined(separator: " and ") + (first.map { " (the first: \($0))" } ?? "")
    }
}

/// One capture of `hapscope check`.
struct CaptureCheck {
    let capture: String
    let invocation: Invocation
    let settings: CheckSettings

    /// DIR/expected/NAME.ndjson for DIR/NAME.pcap.
    static func expectationPath(for capture: String) -> String {
        let directory = (capture as NSString).deletingLastPathComponent
        return ((directory as NSString).appendingPathComponent("expected") as NSString).appendingPathComponent(name(of: capture) + ".ndjson")
    }

    private static func name(of capture: String) -> String {
        let file = SystemInterface.baseName(capture)
        for suffix in [".pcapng", ".pcap", ".cap"] where file.hasSuffix(suffix) { return String(file.dropLast(suffix.count)) }
        return file
    }

    /// DIR/NAME.keylog for DIR/NAME.pcap, and for DIR/NAME.btsnoop too, whose expectation is
    /// DIR/expected/NAME.btsnoop.ndjson: one recording in two containers shares its key log.
    private var keyLogPath: String {
        Invocation.keyLogPath(for: capture)
            ?? ((capture as NSString).deletingLastPathComponent as NSString).appendingPathComponent(Self.name(of: capture) + ".keylog")
    }

    private var expectationPath: String { Self.expectationPath(for: capture) }

    /// The largest expectation read.
    private static let expectationLimit = 1 << 30

    func run() throws(CommandFailure) -> CheckResult {
        let (decoded, damaged) = try decode()
        var result = settings.updates ? try update(decoded, damaged: damaged) : try compare(decoded)
        result.damaged = damaged
        return result
    }

    private func compare(_ decoded: String) throws(CommandFailure) -> CheckResult {
        guard SystemInterface.fileExists(expectationPath) else {
            return CheckResult(capture: capture, expectation: expectationPath, outcome: .missing)
        }
        let expected = try readExpectation()
        let comparison = NDJSONComparison(expected: expected, decoded: decoded, options: settings.comparisonOptions)
        let outcome: CheckResult.Outcome = comparison.isEqual
            ? .matched(records: comparison.decodedRecordCount, exact: expected == decoded) : .differs(comparison)
        return CheckResult(capture: capture, expectation: expectationPath, outcome: outcome)
    }

    private func update(_ decoded: String, damaged: Bool) throws(CommandFailure) -> CheckResult {
        let problems = DecodeProblems(decode: decoded)
        if !problems.isClean, !settings.forces {
            StandardError.line("hapscope: \(capture) did not decode cleanly: \(TerminalText.sanitized(problems.description)); "
                + "\(expectationPath) was not written ('hapscope check --update --force' writes it anyway)")
            return CheckResult(capture: capture, expectation: expectationPath, outcome: .refused(problems))
        }
        let previous = SystemInterface.fileExists(expectationPath) ? try readExpectation() : nil
        let records = NDJSONRecord.lines(of: decoded).count
        if previous == decoded {
            return CheckResult(capture: capture, expectation: expectationPath, outcome: .unchanged(records: records))
        }
        do {
            try FileManager.default.createDirectory(atPath: (expectationPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(decoded.utf8).write(to: URL(fileURLWithPath: expectationPath))
        } catch {
            throw CommandFailure("\(expectationPath): cannot write: \(error.localizedDescription)")
        }
        guard let previous else {
            return CheckResult(capture: capture, expectation: expectationPath, outcome: .created(records: records))
        }
        let changes = NDJSONComparison(expected: previous, decoded: decoded, options: settings.comparisonOptions)
        return CheckResult(capture: capture, expectation: expectationPath, outcome: .updated(changes))
    }

    private func readExpectation() throws(CommandFailure) -> String {
        String(decoding: try SystemInterface.readFile(expectationPath, limit: Self.expectationLimit), as: UTF8.self)
    }

    /// The event stream and findings as `hapscope events --format ndjson` writes them, and whether
    /// the capture was damaged (named on standard error; the decode covers what came before).
    private func decode() throws(CommandFailure) -> (String, damaged: Bool) {
        var configuration = try invocation.analysisConfiguration()
        if SystemInterface.fileExists(keyLogPath) {
            configuration.keyLog.merge(try Invocation.readKeyLog(keyLogPath))
        }
        let reader = try AnalysisRun.openReader([capture], invocation: invocation)
        let buffer = TextBuffer()
        let report = EventLogReport(output: buffer, settings: ReportSettings(format: .ndjson), command: "events")
        let outcome = AnalysisRun(invocation: invocation, configuration: configuration).run(reader, into: report)
        return (buffer.text, outcome.status != .success)
    }
}
