import HAPEvents
import HAPJSON

/// Audit findings in text: one line each.
enum FindingText {
    static func role(_ severity: Severity) -> TextStyle.Role {
        switch severity {
        case .high: .bad
        case .medium: .warning
        case .low, .info: .dim
        }
    }

    /// `HIGH    pairing/srp-malformed  A is 0 mod N [accessory] (#19, #21)`: the party in brackets
    /// is who departs from HAP.
    static func line(_ finding: Finding, style: TextStyle) -> String {
        let severity = style.paint(EventText.padRight(finding.severity.description.uppercased(), 7), role(finding.severity))
        let packets = finding.evidenceRows.compactMap(\.packet).prefix(6).map { "#\($0)" }
        return severity + " " + finding.rule.id + "  " + TerminalText.sanitized(finding.title) + " [\(finding.party)]"
            + (packets.isEmpty ? "" : style.paint(" (\(packets.joined(separator: ", ")))", .dim))
    }

    /// `3 (1 high, 2 medium)`, or `none`.
    static func count(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "none" }
        let bySeverity = Severity.allCases.reversed().compactMap { severity -> String? in
            let count = findings.filter { $0.severity == severity }.count
            return count == 0 ? nil : "\(count) \(severity)"
        }
        return "\(findings.count) (\(bySeverity.joined(separator: ", ")))"
    }
}

/// Audit findings in JSON, with the field names the audit module uses: `rule`, `severity`,
/// `party`, `title`, `explanation`, `evidence` [{`packet`, `time`, `connection`, `detail`}].
enum FindingJSON {
    static func write(_ finding: Finding, clock: CaptureClock, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("rule", finding.rule.id)
        writer.member("severity", finding.severity.description)
        writer.member("party", finding.party.rawValue)
        writer.member("title", finding.title)
        writer.member("explanation", finding.explanationWithReference)
        writer.objects("evidence", finding.evidenceRows) { writer, evidence in
            writer.member("packet", evidence.packet)
            if let time = evidence.time, let seconds = clock.relativeSeconds(time) {
                writer.key("time")
                writer.double(seconds)
            }
            writer.member("connection", evidence.connection)
            writer.member("detail", evidence.detail)
        }
        writer.endObject()
    }

    static func writeFindings(_ findings: [Finding], clock: CaptureClock, into writer: inout JSONWriter) {
        writer.array("findings", findings) { writer, finding in write(finding, clock: clock, into: &writer) }
    }

    /// One NDJSON line: the finding with `"type":"finding"` first.
    static func writeLine(_ finding: Finding, clock: CaptureClock, to output: ReportOutput) {
        var writer = JSONWriter(reservingCapacity: 256)
        write(finding, clock: clock, into: &writer)
        output.write("{\"type\":\"finding\"," + writer.text.dropFirst() + "\n")
        output.endOfRecord()
    }
}
