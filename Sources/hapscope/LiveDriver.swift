import Audit
import Capture
import HAPCore
import Reports

/// Runs the analysis on a live interface into a report, until Ctrl-C, SIGTERM, `--count` or
/// `--duration` ends the capture; then finishes the analysis (open connections are summarised)
/// and the report.
struct LiveDriver {
    let run: AnalysisRun
    let interface: String

    private var invocation: Invocation { run.invocation }

    /// The capture settings the user gave: filter, `--count`, `--duration`.
    private func captureConfiguration() throws(CommandFailure) -> LiveCapture.Configuration {
        var captureConfiguration = LiveCapture.Configuration(filter: invocation.arguments.value(Options.filter.key))
        if let count = invocation.arguments.value(Options.count.key) {
            guard let packets = Int(count), packets > 0 else { throw CommandFailure("--count takes a positive number, not '\(count)'") }
            captureConfiguration.packetLimit = packets
        }
        if let text = invocation.arguments.value(Options.duration.key) {
            guard let duration = Self.parseDuration(text) else {
                throw CommandFailure("--duration takes a time such as 30, 30s, 500ms, 5m or 1h, not '\(text)'")
            }
            captureConfiguration.durationLimit = duration
        }
        return captureConfiguration
    }

    /// Opens and activates the interface, so that a capture that cannot start stops the command
    /// before any report is started.
    func openCapture() throws(CommandFailure) -> LiveCapture {
        let settings = try captureConfiguration()
        do throws(CaptureError) {
            return try LiveCapture(interface: interface, configuration: settings)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Analyses what `capture` delivers into `report` until the capture ends, then finishes both.
    func run(_ capture: LiveCapture, into report: CaptureReport, output: FileOutput) throws(CommandFailure) -> RunOutcome {
        StopSignals.install(stopping: capture.stopper)
        if !invocation.isQuiet {
            for warning in capture.warnings { StandardError.line("hapscope: \(interface): \(warning)") }
            StandardError.line("hapscope: listening on \(interface) (\(capture.linkType)); Ctrl-C stops")
        }
        let auditor = Auditor(configuration: run.audit)
        var failure: CaptureError?
        do throws(CaptureError) {
            try run.pipeline(into: report, auditor: auditor).run(capture, interface: interface)
        } catch {
            failure = error
        }
        let findings = auditor.findings
        report.finish(findings: findings)
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
        return RunOutcome(status: .success, findings: findings)
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
