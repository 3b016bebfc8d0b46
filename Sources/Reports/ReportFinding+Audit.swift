import Audit

extension ReportFinding {
    /// An audit finding as reports show it.
    public init(_ finding: Finding) {
        let severity: Severity = switch finding.severity {
        case .info: .info
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
        var evidence = finding.evidence.map { item in
            Evidence(
                packet: item.packet?.number, time: item.time, connection: item.connection?.description,
                detail: item.occurrences > 1
                    ? "\(item.detail) (\(item.occurrences) times, last #\(item.lastPacket?.number ?? item.packet?.number ?? 0))"
                    : item.detail)
        }
        if finding.omittedEvidenceCount > 0 {
            evidence.append(Evidence(packet: nil, time: nil, connection: nil,
                                     detail: "\(finding.omittedEvidenceCount) more occurrences not listed"))
        }
        self.init(rule: finding.rule.id, severity: severity, title: finding.title,
                  explanation: finding.explanation + " (" + finding.reference + ")", evidence: evidence)
    }
}
