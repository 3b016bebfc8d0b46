import ArgumentParsing
import Foundation

/// hapbench: the benchmark suite, the capture generators and the child-process analysis that
/// the suite measures peak memory with.
enum Command {
    static let run = CommandSpec(
        name: "run", summary: "run the benchmarks (the default command)",
        usage: "[--quick] [--json FILE] [--filter NAME] [--capture-dir DIR] [--size SIZE]",
        options: [
            OptionSpec(["--quick"], help: "a fiftieth of the iterations, 3 rounds, a 3 MB capture: checks that everything runs"),
            OptionSpec(["--json"], .value(name: "FILE"), valueKind: .file, help: "also write the figures as JSON to FILE"),
            OptionSpec(["--filter"], .value(name: "NAME"), help: "run only benchmarks whose name contains NAME (tlv8, crypto, pipeline, memory, …)"),
            OptionSpec(["--capture-dir"], .value(name: "DIR"), valueKind: .directory, help: "where generated captures are kept between runs (default .build/hapbench-captures)"),
            OptionSpec(["--size"], .value(name: "SIZE"), help: "the capture the pipeline is timed on, e.g. 300MB (default; 3MB with --quick)"),
        ], maximumPositionals: 0)

    static let generate = CommandSpec(
        name: "generate", summary: "write a deterministic HAP capture and its key log",
        usage: "--size SIZE -o FILE [--transport ip|ble|coap] [--adversarial | --home] [--seed N]",
        options: [
            OptionSpec(["--size"], .value(name: "SIZE"), help: "stop once the capture reaches SIZE (e.g. 300MB, 64MiB)"),
            OptionSpec(["-o", "--output"], .value(name: "FILE"), valueKind: .file, help: "the capture; the key log goes beside it as FILE.keylog"),
            OptionSpec(["--transport"], .value(name: "TRANSPORT"), help: "ip (the default: HAP over TCP), ble (HAP over Bluetooth LE: HCI H4 frames of LE connections), or coap (HAP over Thread: CoAP on UDP port 5683, sessions keyed by the key log)"),
            OptionSpec(["--adversarial"], help: "connection floods, endless messages and endless out-of-order data instead"),
            OptionSpec(["--home"], help: "a home hub's day instead: sessions already running when the capture starts, events every few seconds"),
            OptionSpec(["--seed"], .value(name: "N"), help: "another deterministic capture"),
        ], maximumPositionals: 0)

    static let analyze = CommandSpec(
        name: "analyze", summary: "analyse one capture with its key log (the suite runs this in a child process)",
        usage: "[--plain] [--jobs N] [--peak-memory-to FILE] FILE",
        options: [
            OptionSpec(["--plain"], help: "only read the packets with libpcap, as the suite's baseline does"),
            OptionSpec(["--jobs"], .value(name: "N"), help: "analyse in N jobs, as hapscope --jobs does (default 1)"),
            OptionSpec(["--peak-memory-to"], .value(name: "FILE"), valueKind: .file, help: "write this process's peak resident bytes (VmHWM) to FILE"),
        ],
        positionalName: "capture", positionalKind: .file, maximumPositionals: 1)

    static let exportCorpus = CommandSpec(
        name: "export-corpus", summary: "write the TLV8 corpus messages as DIR/<name>.tlv8 for the Python peers",
        usage: "DIR", options: [], positionalName: "directory", positionalKind: .directory, maximumPositionals: 1)

    static let manualPage = OptionSpec(["--man"], help: "print the manual page hapbench(1), in roff")

    static let help = CommandSpec(
        name: "help", summary: "this help, or with --man the manual page", usage: "[--man]", options: [manualPage],
        maximumPositionals: 0)

    static let all = [run, generate, analyze, exportCorpus, help]
}

/// `300MB`, `64MiB`, `1.5GB` or a plain byte count; MB are 10⁶ bytes, as in MB/s.
func parseSize(_ text: String) throws(UsageError) -> Int {
    let units: [(String, Double)] = [("KiB", 1_024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
        if let value = Double(text.dropLast(suffix.count)), value > 0 { return Int(value * scale) }
        break
    }
    if let value = Int(text), value > 0 { return value }
    throw UsageError("'\(text)' is not a size such as 300MB or 64MiB")
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A command's help; the default command's lists the others too.
func help(for command: CommandSpec) -> String {
    var text = HelpFormatter.help(for: command, program: "hapbench")
    if command.name == Command.run.name {
        text += "\nother commands:\n"
        for other in Command.all where other.name != Command.run.name {
            text += "  hapbench \(other.name) \(other.usage)\n      \(other.summary)\n"
        }
    }
    return text
}

func main() throws -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let command = Command.all.first { $0.name == arguments.first }.map { spec in
        arguments.removeFirst()
        return spec
    } ?? Command.run
    if command.name == Command.help.name {
        if try ArgumentParser.parse(arguments, for: command).has(Command.manualPage.key) {
            print(ManualPage.render(Command.program), terminator: "")
        } else {
            print(help(for: Command.run), terminator: "")
        }
        return 0
    }
    if arguments.contains("--help") || arguments.contains("-h") {
        print(help(for: command), terminator: "")
        return 0
    }
    let parsed: ParsedArguments
    do {
        parsed = try ArgumentParser.parse(arguments, for: command)
    } catch {
        standardError("hapbench \(command.name): \(error)")
        return 2
    }
    switch command.name {
    case "generate":
        guard let sizeText = parsed.value("--size"), let output = parsed.value("--output") else {
            standardError("hapbench generate: --size and -o are required")
            return 2
        }
        let size = try parseSize(sizeText)
        let seed = parsed.value("--seed").flatMap { UInt64($0) }
        let transport = parsed.value("--transport") ?? "ip"
        guard ["ip", "ble", "coap"].contains(transport) else {
            standardError("hapbench generate: --transport is ip, ble or coap, not '\(transport)'")
            return 2
        }
        guard transport == "ip" || !(parsed.has("--adversarial") || parsed.has("--home")) else {
            standardError("hapbench generate: --adversarial and --home are IP captures; leave out --transport \(transport)")
            return 2
        }
        if transport != "ip" {
            let summary: CustomStringConvertible
            if transport == "ble" {
                var generator = BLECaptureGenerator(targetByteCount: size)
                generator.configuration.seed = seed ?? generator.configuration.seed
                summary = try generator.generate(to: output)
            } else {
                var generator = CoAPCaptureGenerator(targetByteCount: size)
                generator.configuration.seed = seed ?? generator.configuration.seed
                summary = try generator.generate(to: output)
            }
            print("\(output): \(summary); key log \(CaptureGenerator.keyLogPath(forCapture: output))")
        } else if parsed.has("--adversarial") {
            var configuration = AdversarialCaptureGenerator.Configuration(targetByteCount: size)
            if let seed { configuration.seed = seed }
            let summary = try AdversarialCaptureGenerator(configuration: configuration).generate(to: output)
            print("\(output): \(summary.captureBytes) bytes, \(summary.packets) packets, \(summary.connections) connections")
        } else {
            var configuration = parsed.has("--home") ? CaptureGenerator.Configuration.home(targetByteCount: size)
                : CaptureGenerator.Configuration(targetByteCount: size)
            if let seed { configuration.seed = seed }
            let summary = try CaptureGenerator(configuration: configuration).generate(to: output)
            print("\(output): \(summary.captureBytes) bytes, \(summary.packets) packets, \(summary.connections) connections "
                + "(\(summary.encryptedSessions) encrypted sessions, \(summary.pairSetups) pair-setups, \(summary.mdnsMessages) mDNS messages); "
                + "key log \(CaptureGenerator.keyLogPath(forCapture: output))")
        }
    case "analyze":
        guard let path = parsed.positionals.first else {
            standardError("hapbench analyze: which capture?")
            return 2
        }
        if parsed.has("--plain") {
            let counts = try CaptureAnalysis.countPackets(path)
            print("\(counts.packets) packets, \(counts.bytes) bytes")
        } else {
            guard let jobs = Int(parsed.value("--jobs") ?? "1"), jobs >= 1 else {
                standardError("hapbench analyze: --jobs takes a number from 1")
                return 2
            }
            let tally = try CaptureAnalysis.run(path, keyLog: CaptureAnalysis.keyLog(forCapture: path), jobs: jobs)
            if let fallback = tally.fallback { print("--jobs \(jobs): \(fallback)") }
            print("\(tally.packets) packets, \(tally.events) events, \(tally.httpMessages) HTTP messages, "
                + "\(tally.decryptedSessions)/\(tally.sessions) sessions decrypted, \(tally.problemCount) problems")
            for problem in tally.firstProblems { print("  \(problem)") }
        }
        if let resultPath = parsed.value("--peak-memory-to") {
            try writeText("\(ChildProcess.peakResidentBytesOfThisProcess ?? 0)\n", to: resultPath)
        }
    case "export-corpus":
        guard let directory = parsed.positionals.first else {
            standardError("hapbench export-corpus: which directory?")
            return 2
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for message in TLV8CorpusMessage.all {
            try Data(message.bytes).write(to: URL(fileURLWithPath: "\(directory)/\(message.name).tlv8"))
        }
    default:
        var options = BenchmarkSuite.Options()
        options.quick = parsed.has("--quick")
        options.filter = parsed.value("--filter")
        if let directory = parsed.value("--capture-dir") { options.captureDirectory = directory }
        if let size = parsed.value("--size") { options.captureByteCount = try parseSize(size) }
        options.progress = { standardError("hapbench: \($0) …") }
        let report = try BenchmarkSuite(options: options).run()
        print(report.text)
        if let path = parsed.value("--json") {
            try report.json().write(to: URL(fileURLWithPath: path))
        }
    }
    return 0
}

do {
    exit(try main())
} catch let error as UsageError {
    standardError("hapbench: \(error)")
    exit(2)
} catch {
    standardError("hapbench: \(error)")
    exit(1)
}
