import HAPEvents
/// The audit's findings, most severe first: severity, rule, title, explanation and evidence.
extension HTMLReportBuilder {
    func writeFindings(_ html: inout HTMLWriter, findings: [Finding]) {
        html.section(id: "findings", title: "Findings") { html in
            if findings.isEmpty {
                html.element("p", ["class": "ok"], text: "The audit found nothing to report.")
                return
            }
            // Stable within a severity: the audit's order is the order it saw the evidence.
            let ordered = findings.enumerated().sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }
            for (_, finding) in ordered {
                writeFinding(finding, &html)
            }
        }
    }

    private func writeFinding(_ finding: Finding, _ html: inout HTMLWriter) {
        html.open("article", ["class": "finding finding-\(finding.severity)"])
        html.element("h3") { html in
            html.element("span", ["class": "badge sev-\(finding.severity)"], text: finding.severity.description)
            html.text(" " + finding.title + " ")
            html.span("rule", finding.rule.id)
            html.text(" ")
            html.span("party", "by the \(finding.party)")
        }
        html.element("p", text: finding.explanationWithReference)
        if !finding.evidenceRows.isEmpty {
            html.table(class: "evidence", headers: ["Packet", "Time", "Connection", "Evidence"], numericColumns: [1]) { html in
                for evidence in finding.evidenceRows.prefix(limits.evidencePerFinding) {
                    html.markup("<tr>")
                    html.packetCell(evidence.packet)
                    html.numberCell(evidence.time.map { HTMLFormat.offset(offset($0)) } ?? "—")
                    html.element("td", ["class": "mono wrap"], text: evidence.connection ?? "—")
                    html.cell(limits.clipped(evidence.detail))
                    html.markup("</tr>\n")
                }
            }
            html.omissionNote(finding.evidenceRows.count - limits.evidencePerFinding, "piece of evidence", "pieces of evidence",
                              reason: "a finding lists its first \(HTMLFormat.count(limits.evidencePerFinding))")
        }
        html.close("article")
        html.markup("\n")
    }
}
