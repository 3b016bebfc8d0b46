import ArgumentParsing
import Capture
import HAPAnalysis
import Reports

extension Command {
    static let liveInterface = OptionSpec(["-i", "--interface"], .value(name: "IFACE"), help: "capture on IFACE (required)")
    static let liveCount = OptionSpec(["-c", "--count"], .value(name: "N"), help: "stop after N packets")
    static let liveDuration = OptionSpec(
        ["--duration"], .value(name: "TIME"), help: "stop after TIME: seconds, or with a unit: 500ms, 30s, 5m, 1h")

    static let live = Command(spec: CommandSpec(
        name: "live",
        summary: "Analyse a live interface, printing events as they happen; Ctrl-C stops cleanly.",
        usage: "-i IFACE [options]",
        options: [liveInterface, liveCount, liveDuration, Options.filter, Options.keyLog, Options.setupCode, Options.setupID,
                  Options.showKeys, Options.limit, Options.format, Options.output, Options.quiet, Options.noColor, Options.help],
        positionalName: nil, maximumPositionals: 0,
        details: """
            Events are written one per line (as 'hapscope events' writes them) the moment they are
            known, in every format. Ctrl-C (SIGINT) or SIGTERM, --count or --duration end the
            capture: open connections are then summarised and the report is completed; a second
            Ctrl-C quits at once. Capturing needs root, or CAP_NET_RAW and CAP_NET_ADMIN.

            limits (--limit NAME=VALUE; byte counts take k, M or G):
            \(LimitOption.helpTable)

            exit status: 0 the capture ran and was stopped; 2 usage error or the interface could
            not be captured on.
            """)) { invocation throws(CommandFailure) in
        guard let interface = invocation.arguments.value(liveInterface.key) else {
            throw CommandFailure("live needs an interface: -i IFACE (see 'hapscope live --help')")
        }
        var captureConfiguration = LiveCapture.Configuration(filter: invocation.arguments.value(Options.filter.key))
        if let count = invocation.arguments.value(liveCount.key) {
            guard let packets = Int(count), packets > 0 else { throw CommandFailure("--count takes a positive number, not '\(count)'") }
            captureConfiguration.packetLimit = packets
        }
        if let text = invocation.arguments.value(liveDuration.key) {
            guard let duration = parseDuration(text) else {
                throw CommandFailure("--duration takes a time such as 30, 30s, 500ms, 5m or 1h, not '\(text)'")
            }
            captureConfiguration.durationLimit = duration
        }
        let configuration = try invocation.analysisConfiguration()
        let output = try invocation.makeOutput(streaming: true)
        let report = EventLogReport(output: output, settings: invocation.reportSettings, command: "live")
        let capture: LiveCapture
        do throws(CaptureError) {
            capture = try LiveCapture(interface: interface, configuration: captureConfiguration)
        } catch {
            throw CommandFailure(error.description)
        }
        StopSignals.install(stopping: capture.stopper)
        if !invocation.isQuiet {
            for warning in capture.warnings { StandardError.line("hapscope: \(interface): \(warning)") }
            StandardError.line("hapscope: listening on \(interface) (\(capture.linkType)); Ctrl-C stops")
        }
        let analyzer = CaptureAnalyzer(configuration: configuration) { report.consume($0) }
        analyzer.inputOpened(name: interface, linkType: capture.linkType)
        var failure: CaptureError?
        do throws(CaptureError) {
            while let packet = try capture.next() {
                if report.clock.origin == nil { report.clock.origin = packet.info.timestamp }
                analyzer.process(packet)
            }
        } catch {
            failure = error
        }
        analyzer.finish()
        report.finish(findings: nil)
        output.flush()
        if let failure { throw CommandFailure(failure.description) }
        if let failure = output.failure { throw CommandFailure(failure) }
        if !invocation.isQuiet {
            let kernel = (try? capture.statistics()).map { ", \($0.droppedForLackOfBuffer) dropped by the kernel" } ?? ""
            let reason = switch capture.endReason {
            case .packetLimitReached?: "the packet count was reached"
            case .durationLimitReached?: "the duration was reached"
            case .stopped?, nil: "stopped"
            }
            StandardError.line("hapscope: \(capture.packetsRead) packets captured\(kernel); \(reason)")
        }
        return .success
    }

    /// `30`, `30s`, `1.5s`, `500ms`, `5m`, `1h`.
    static func parseDuration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite, number > 0, number < 1e9 else {
                return nil
            }
            return .milliseconds(Int64((number * unit.seconds * 1000).rounded(.up)))
        }
        return nil
    }
}
