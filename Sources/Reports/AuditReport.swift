import HAPEvents
import HAPJSON

/// `hapscope audit`: the findings, most severe first, each with why it matters, the HAP rule it
/// breaks and the evidence (packets, times, connections, values).
public final class AuditReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private var inputs: [String] = []
    private var totals: InputSummary?

    public init(output: ReportOutput, settings: ReportSettings) {
        self.output = output
        self.settings = settings
    }

    public func take(_ event: HAPEvent) {
        switch event.kind {
        case .inputOpened(let input): inputs.append(input.name)
        case .inputEnded(let summary): totals = summary
        default: break
        }
    }

    public func finish(findings: [Finding]?) {
        let findings = (findings ?? []).sorted { $0.severity > $1.severity }
        switch settings.format {
        case .text: writeText(findings)
        case .json:
            writeJSONDocument(command: "audit", to: output) { writer in
                writer.member("inputs", strings: inputs)
                writer.member("packets", totals?.packets)
                FindingJSON.writeFindings(findings, clock: clock, into: &writer)
            }
        case .ndjson:
            for finding in findings { FindingJSON.writeLine(finding, clock: clock, to: output) }
        }
        output.endOfRecord()
    }

    private func writeText(_ findings: [Finding]) {
        let style = settings.style
        var lines = [style.paint("audit of \(inputs.isEmpty ? "no input" : inputs.joined(separator: ", "))", .heading)]
        if let origin = clock.origin { lines.append(style.paint("times count from the first packet, \(CaptureClock.iso8601(origin))", .dim)) }
        lines.append("findings: \(FindingText.count(findings))")
        for finding in findings {
            lines.append("")
            lines.append(FindingText.line(finding, style: style))
            lines.append("  " + TerminalText.sanitized(finding.explanationWithReference))
            for evidence in finding.evidenceRows {
                var place: [String] = []
                if let packet = evidence.packet { place.append("#\(packet)") }
                if let time = evidence.time { place.append(clock.relativeText(time)) }
                if let connection = evidence.connection { place.append(TerminalText.sanitized(connection)) }
                lines.append("  - " + (place.isEmpty ? "" : style.paint(place.joined(separator: " ") + ": ", .dim))
                             + TerminalText.sanitized(evidence.detail))
            }
        }
        output.write(lines.joined(separator: "\n") + "\n")
    }
}
