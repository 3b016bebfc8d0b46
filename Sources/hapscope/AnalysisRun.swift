import Audit
import Capture
import HAPAnalysis
import HAPCore
import HAPEvents
import Reports

/// How a run ended: the exit status, and the audit's findings (most severe first).
struct RunOutcome {
    var status: ExitStatus
    var findings: [Finding]
}

/// One run of the analysis as the command line wires it: the pipeline feeding the report, the
/// audit and whatever else the command consumes (an export), then the report finished with the
/// audit's findings; over capture files (with a progress bar, damage remembered for the exit
/// status) or a live interface (`LiveDriver`).
struct AnalysisRun {
    let invocation: Invocation
    let configuration: AnalysisConfiguration
    /// What the audit judges by (`--setup-code-kind`); its defaults for the other commands.
    var audit = AuditConfiguration()
    var consumers: [HAPEventConsumer] = []
    var packetObservers: [CapturedPacketObserver] = []
    /// The inputs that are no capture, delivered before the captures: database dumps.
    var dumps: [DatabaseDumpEvent] = []
    /// Jobs analysing capture files (`--jobs`); a run with packet observers (they need every
    /// packet in order on one thread) takes one whatever this says.
    let jobs: Int

    init(invocation: Invocation, configuration: AnalysisConfiguration) {
        self.invocation = invocation
        self.configuration = configuration
        jobs = invocation.jobs
    }

    /// Opens the captures, so that a missing or unreadable first file stops the command before
    /// any report is started.
    static func openReader(_ files: [String], invocation: Invocation) throws(CommandFailure) -> CaptureFileReader {
        guard !files.isEmpty else {
            throw CommandFailure(
                "no capture given: name a pcap or pcapng file, or - for standard input (see 'hapscope \(invocation.command.name) --help')")
        }
        do {
            return try CaptureFileReader(files: files, filter: invocation.arguments.value(Options.filter.key))
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// A pipeline feeding `report`, the auditor and this run's consumers.
    func pipeline(into report: CaptureReport, auditor: Auditor) -> AnalysisPipeline {
        AnalysisPipeline(configuration: configuration, consumers: [report, auditor] + consumers, packetObservers: packetObservers)
    }

    /// Analyses every packet `reader` delivers into `report`, finishes it with the audit's
    /// findings, and returns the outcome: `.usageOrInput` when a capture was damaged or
    /// unreadable (named on standard error; the report covers everything read before), else
    /// `.success`.
    ///
    /// The dumps come first, each an input of its own; with no reader they are the whole run.
    func run(_ reader: CaptureFileReader?, into report: CaptureReport) -> RunOutcome {
        invocation.announceKeyLogsBesideCaptures()
        let auditor = Auditor(configuration: audit)
        let everyone: [HAPEventConsumer] = [report, auditor] + consumers
        for event in DumpInput.events(dumps) {
            for consumer in everyone { consumer.consume(event) }
        }
        var errors: [CaptureError] = []
        if let reader {
            let progressBar = invocation.showsProgress && !reader.files.contains("-") ? ProgressBar() : nil
            let progress = { (position: CaptureProgress, packets: Int) -> Void in progressBar?.update(position, packets: packets) }
            if jobs > 1, packetObservers.isEmpty {
                // Exports see every packet in order on one thread: they run one job.
                let outcome = ShardedAnalysis(configuration: configuration, consumers: everyone, jobs: jobs).run(reader, progress: progress)
                errors = outcome.errors
                if let fallback = outcome.fallback, !invocation.isQuiet {
                    progressBar?.clear()
                    StandardError.line("hapscope: --jobs: \(fallback)")
                }
            } else {
                errors = pipeline(into: report, auditor: auditor).run(reader, progress: progress)
            }
            progressBar?.clear()
        } else {
            let end = HAPEvent(packet: nil, kind: .inputEnded(InputSummary()))
            for consumer in everyone { consumer.consume(end) }
        }
        let findings = auditor.findings
        report.finish(findings: findings)
        for error in errors {
            let covered = if case .damagedFile = error { "; the report covers the packets before the damage" } else { "" }
            StandardError.line("hapscope: \(error)\(covered)")
        }
        return RunOutcome(status: errors.isEmpty ? .success : .usageOrInput, findings: findings)
    }
}
