import ArgumentParsing
import Audit
import HAPCore
import HAPEvents
import Reports

/// The commands that analyse captures and write one report.
extension Command {
    /// A command that reads captures into the report `makeReport` builds.
    private static func analysing(
        _ name: String, summary: String, extraOptions: [OptionSpec] = [], details: String = "", streams: Bool,
        offersHTML: Bool = false,
        makeReport: @escaping @Sendable (Invocation, FileOutput, AnalysisConfiguration) -> CaptureReport
    ) -> Command {
        let spec = CommandSpec(
            name: name, summary: summary, usage: "[options] [capture ...]", options: extraOptions + Options.analysis,
            positionalName: "capture", positionalKind: .file, details: details, sharedDetails: Options.analysisDetails)
        return Command(spec: spec) { invocation throws(CommandFailure) in
            let configuration = try invocation.analysisConfiguration()
            return try analyse(invocation, configuration: configuration, streams: streams) { output throws(CommandFailure) in
                guard invocation.format == .html else { return makeReport(invocation, output, configuration) }
                guard offersHTML else {
                    throw CommandFailure("--format html writes the whole report: use 'hapscope summary --format html -o report.html'")
                }
                return HTMLCaptureReport(output: output, title: invocation.reportTitle)
            }.status
        }
    }

    /// Reads `files` (by default the captures named), or captures live with `-i`, into the report
    /// `makeReport` builds for the output, and returns the exit status.
    ///
    /// - Parameter streams: whether the report is written as events arrive, so that its records
    ///   should leave at once when the input is live (`-i`, or standard input: `tcpdump -w -`).
    static func analyse(
        _ invocation: Invocation, configuration: AnalysisConfiguration, audit: AuditConfiguration = AuditConfiguration(),
        files: [String]? = nil, dumps: [DatabaseDumpEvent] = [], streams: Bool, consumers: [HAPEventConsumer] = [],
        makeReport: (FileOutput) throws(CommandFailure) -> CaptureReport
    ) throws(CommandFailure) -> RunOutcome {
        let files = files ?? invocation.captureFiles
        var run = AnalysisRun(invocation: invocation, configuration: configuration)
        run.audit = audit
        run.dumps = dumps
        run.consumers = consumers
        if let interface = invocation.arguments.value(Options.interface.key) {
            guard files.isEmpty, dumps.isEmpty else { throw CommandFailure("read captures or capture live with -i, not both") }
            let driver = LiveDriver(run: run, interface: interface)
            let capture = try driver.openCapture()
            let output = try invocation.makeOutput(streaming: true)
            return try driver.run(capture, into: try makeReport(output), output: output)
        }
        let reader = files.isEmpty && !dumps.isEmpty ? nil : try AnalysisRun.openReader(files, invocation: invocation)
        let output = try invocation.makeOutput(streaming: streams && files.contains("-"))
        let report = try makeReport(output)
        let outcome = run.run(reader, into: report)
        output.flush()
        if let failure = output.failure { throw CommandFailure(failure) }
        return outcome
    }

    static let summary = analysing(
        "summary",
        summary: "One screen on a capture: accessories, connections, pairing, sessions, activity, problems.",
        details: """
            This is the command run when none is named: 'hapscope capture.pcap'. With --format
            html -o report.html it writes the self-contained HTML report: summary, accessory tree,
            pairing ladders, timeline with plots, mDNS table and findings.
            """,
        streams: false, offersHTML: true
    ) { invocation, output, _ in
        SummaryReport(output: output, settings: invocation.reportSettings)
    }

    static let discover = analysing(
        "discover",
        summary: "Every HAP and Matter mDNS advertisement over time, TXT keys explained, changes highlighted.",
        extraOptions: [Options.verbose],
        details: """
            The first advertisement of an instance lists every TXT key with its meaning; later ones
            list what changed (c#, s# and sf highlighted). --verbose lists every key every time.
            Goodbyes (TTL 0) and browsing queries are shown too.
            """,
        streams: true
    ) { invocation, output, _ in
        DiscoveryReport(output: output, settings: invocation.reportSettings, verbose: invocation.arguments.has(Options.verbose.key))
    }

    static let pairing = analysing(
        "pairing",
        summary: "Each pair-setup, pair-verify and /pairings exchange as a ladder, M1 to M6, TLVs decoded.",
        details: """
            Each ladder shows the messages between controller and accessory with every TLV item
            (field name and value), refusals, how long the accessory took for M2, M4 and M6, and the
            checks hapscope could make with the key log: SRP proofs, Ed25519 signatures.
            """,
        streams: true
    ) { invocation, output, _ in
        PairingReport(output: output, settings: invocation.reportSettings)
    }

    static let timelineCharacteristic = OptionSpec(
        ["--char"], .value(name: "AID.IID|NAME"), repeatable: true,
        help: "follow one characteristic: 1.10, or a name such as temperature")

    static let timeline = analysing(
        "timeline",
        summary: "Characteristic reads, writes, events and subscriptions in time order.",
        extraOptions: [timelineCharacteristic],
        details: """
            Entries are written as they are found. --char follows one characteristic by address
            (1.10) or by name, matched anywhere in the catalogue name without regard to case;
            give it several times to follow several.
            """,
        streams: true
    ) { invocation, output, _ in
        TimelineReport(
            output: output, settings: invocation.reportSettings,
            selectors: invocation.arguments.values(timelineCharacteristic.key).map(CharacteristicSelector.init))
    }

    static let http = analysing(
        "http",
        summary: "Every HAP HTTP message, decrypted where the key log allows, as it is reassembled.",
        extraOptions: [Options.verbose],
        details: """
            One line per message; --verbose adds the headers and the body (pairing bodies decoded
            as TLV8, binary bodies as a hex dump). Connections, the switch to encrypted frames and
            why a session cannot be decrypted are shown where they happen.
            """,
        streams: true
    ) { invocation, output, _ in
        HTTPReport(output: output, settings: invocation.reportSettings, verbose: invocation.arguments.has(Options.verbose.key))
    }

    static let stats = analysing(
        "stats",
        summary: "Per connection: packets, bytes, retransmissions, out-of-order segments, gaps, frames; limits.",
        streams: false
    ) { invocation, output, configuration in
        StatsReport(output: output, settings: invocation.reportSettings, limits: configuration.limits)
    }

    static let responses = analysing(
        "responses",
        summary: "\"No Response\", diagnosed: response times, requests never answered, statuses, event behaviour.",
        details: """
            Per characteristic and per controller, how long the accessory took to answer (median,
            95th percentile, maximum; from the request's last packet to the response's first); the
            responses slower than 3 s, the requests never answered and the connections closed or
            reset with requests outstanding; the HAP statuses answered, by name; each
            characteristic's EVENTs, bursts beyond HAP's 1 s coalescing, EVENTs inside a response
            and after unsubscribing. Thresholds and sources: docs/audit-rules.md.
            """,
        streams: false
    ) { invocation, output, _ in
        ResponsesReport(output: output, settings: invocation.reportSettings)
    }

    static let events = analysing(
        "events",
        summary: "Every event of the analysis, one line each; with --format ndjson, the whole event stream.",
        details: """
            The NDJSON form is deterministic for a given input and options (no wall-clock time,
            inputs named by file name only): it is the expected decode a regression test compares
            against.
            """,
        streams: true
    ) { invocation, output, _ in
        EventLogReport(output: output, settings: invocation.reportSettings, command: "events")
    }
}
