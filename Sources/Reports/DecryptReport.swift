import HAPEvents

/// What `hapscope decrypt` says after writing the decrypted copy: which sessions it opened, and
/// why the others stay encrypted.
public final class DecryptReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let destination: String
    private let counts: () -> (written: Int, replaced: Int)
    private var sessions: [SessionStartEvent] = []
    private var problems: [SessionProblemEvent] = []

    /// - Parameter counts: the packets the export wrote and replaced, read when the report ends.
    public init(output: ReportOutput, destination: String, counts: @escaping () -> (written: Int, replaced: Int)) {
        self.output = output
        self.destination = destination
        self.counts = counts
    }

    public func take(_ event: HAPEvent) {
        switch event.kind {
        case .sessionStarted(let start): sessions.append(start)
        case .sessionProblem(let problem) where problem.kind == .keyDoesNotFit: problems.append(problem)
        default: break
        }
    }

    public func finish(findings: [Finding]?) {
        let (written, replaced) = counts()
        let opened = sessions.filter { $0.decryptable.count == 2 }
        var lines = ["wrote \(TerminalText.sanitized(destination)): \(written) packets, \(replaced) encrypted packets replaced by plaintext; "
            + "\(opened.count) of \(sessions.count) encrypted sessions decrypted"]
        for session in sessions where session.decryptable.count < 2 {
            lines.append("  \(session.connection) left encrypted: \(TerminalText.sanitized(session.undecryptableWording ?? "no key for it"))")
        }
        // The copy rewrites TCP streams; a HAP-BLE or CoAP session's plaintext is in the events.
        for session in opened where session.connection.transport.name != "ip" {
            lines.append("  \(session.connection) (\(session.connection.transport)) copied encrypted: only HAP over IP sessions are rewritten; "
                + "'hapscope timeline' and 'hapscope events' show its plaintext")
        }
        for problem in problems {
            lines.append("  \(problem.connection) \(problem.direction): \(TerminalText.sanitized(problem.message))")
        }
        output.write(lines.joined(separator: "\n") + "\n")
        output.endOfRecord()
    }
}
