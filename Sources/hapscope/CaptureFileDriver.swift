import Audit
import Capture
import HAPAnalysis
import Reports

/// How a run ended: the exit status, and the audit's findings (most severe first).
struct RunOutcome {
    var status: ExitStatus
    var findings: [ReportFinding]
}

/// Runs the analysis over capture files into a report: the loop of `CaptureAnalyzer.analyze`,
/// plus what the command line needs from it: the report's time origin set from the first
/// packet, inputs named by file name only, a progress bar, and damage remembered for the exit
/// status.
struct CaptureFileDriver {
    let invocation: Invocation
    let configuration: AnalysisConfiguration

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

    /// Analyses every packet `reader` delivers into `report` (and the audit, and `export` when a
    /// decrypted copy is written), finishes it, and returns the outcome: `.usageOrInput` when a
    /// capture was damaged or unreadable (named on standard error; the report covers everything
    /// read before), else `.success`.
    func run(_ reader: CaptureFileReader, into report: CaptureReport, export: DecryptedCaptureExport? = nil) throws(CommandFailure) -> RunOutcome {
        let files = reader.files
        let auditor = Auditor(configuration: try invocation.auditConfiguration())
        let analyzer = CaptureAnalyzer(configuration: configuration, export: export) { event in
            report.consume(event)
            auditor.consume(event)
        }
        let progress = invocation.showsProgress && !files.contains("-") ? ProgressBar() : nil
        var inputErrors: [CaptureError] = []
        var fileIndex = -1
        while true {
            do {
                guard let packet = try reader.next() else { break }
                if report.clock.origin == nil { report.clock.origin = packet.info.timestamp }
                if packet.fileIndex != fileIndex {
                    fileIndex = packet.fileIndex
                    analyzer.inputOpened(name: SystemInterface.baseName(reader.files[fileIndex]), linkType: packet.linkType)
                }
                analyzer.process(packet)
                if let progress, reader.packetsRead & 1023 == 0 { progress.update(reader.progress, packets: reader.packetsRead) }
            } catch {
                // The event names the file by its name only; standard error names it as given.
                analyzer.inputProblem(error.withFileNamesShortened.description)
                inputErrors.append(error)
            }
        }
        progress?.clear()
        analyzer.finish()
        let findings = auditor.findings.map(ReportFinding.init)
        report.finish(findings: findings)
        for error in inputErrors {
            let covered = if case .damagedFile = error { "; the report covers the packets before the damage" } else { "" }
            StandardError.line("hapscope: \(error)\(covered)")
        }
        return RunOutcome(status: inputErrors.isEmpty ? .success : .usageOrInput, findings: findings)
    }
}

extension CaptureError {
    /// The same error with file paths reduced to file names.
    var withFileNamesShortened: CaptureError {
        switch self {
        case .fileNotFound(let file): .fileNotFound(file: SystemInterface.baseName(file))
        case .unreadableFile(let file, let reason): .unreadableFile(file: SystemInterface.baseName(file), reason: reason)
        case .notACaptureFile(let file, let reason): .notACaptureFile(file: SystemInterface.baseName(file), reason: reason)
        case .damagedFile(let file, let offset, let packetsRead, let reason):
            .damagedFile(file: SystemInterface.baseName(file), offset: offset, packetsRead: packetsRead, reason: reason)
        case .unsupportedLinkType(let file, let linkType): .unsupportedLinkType(file: SystemInterface.baseName(file), linkType: linkType)
        case .writeFailed(let file, let reason): .writeFailed(file: SystemInterface.baseName(file), reason: reason)
        case .invalidFilter, .permissionDenied, .noSuchDevice, .interfaceNotUp, .liveCaptureFailed: self
        }
    }
}
