import Audit
import HAPEvents
import JUnitXML
import Packets
import Reports

/// `hapscope audit --format junit`: one test case per input and rule of the catalogue, failed when
/// a finding of the rule in that input reaches `--fail-on`, so that a CI system lists each rule of
/// each capture as passed or failed, beside the exit status.
///
/// A finding belongs to the input its first piece of evidence is in (packets are numbered across
/// the inputs of a run), a dump's findings to the dump they name, and a finding with no packet
/// (the setup code) to the first input.
final class AuditJUnitReport: CaptureReport {
    var clock = CaptureClock()
    private let output: ReportOutput
    private let threshold: Severity
    /// The run's inputs in order, with the number of their first packet once it is seen.
    private var inputs: [(name: String, firstPacket: Int?)] = []

    init(output: ReportOutput, threshold: Severity) {
        self.output = output
        self.threshold = threshold
    }

    func take(_ event: HAPEvent) {
        if case .inputOpened(let input) = event.kind {
            inputs.append((input.name, nil))
        } else if let packet = event.packet, let last = inputs.indices.last, inputs[last].firstPacket == nil {
            inputs[last].firstPacket = packet.number
        }
    }

    func finish(findings: [Finding]?) {
        let names = inputs.isEmpty ? ["input"] : inputs.map(\.name)
        var byInput: [Int: [Finding]] = [:]
        for finding in findings ?? [] {
            byInput[inputIndex(of: finding), default: []].append(finding)
        }
        var testCases: [JUnitReport.TestCase] = []
        for (index, name) in names.enumerated() {
            let found = byInput[index] ?? []
            for rule in AuditRule.catalogue {
                let failing = found.filter { $0.rule == rule && $0.severity >= threshold }
                let outcome: JUnitReport.TestCase.Outcome = failing.isEmpty
                    ? .passed
                    : .failed(JUnitReport.Problem(
                        message: failing.map { "\($0.severity.name.uppercased()) \($0.rule.id) by the \($0.party): \($0.title)" }
                            .joined(separator: "; "),
                        type: failing.map(\.severity).max()?.name ?? threshold.name,
                        text: failing.map(\.description).joined(separator: "\n\n")))
                testCases.append(JUnitReport.TestCase(name: rule.id, className: "hapscope.audit.\(name)", outcome: outcome))
            }
        }
        output.write(JUnitReport(name: "hapscope audit", testCases: testCases).xml)
        output.endOfRecord()
    }

    private func inputIndex(of finding: Finding) -> Int {
        if let packet = finding.firstPacket?.number,
           let index = inputs.indices.last(where: { (inputs[$0].firstPacket ?? Int.max) <= packet }) {
            return index
        }
        if let accessory = finding.accessory, let index = inputs.firstIndex(where: { $0.name == accessory }) {
            return index
        }
        return 0
    }
}
