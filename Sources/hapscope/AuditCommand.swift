import ArgumentParsing
import Audit
import HAPEvents
import Reports

extension Command {
    static let failOn = OptionSpec(
        ["--fail-on"], .value(name: "SEVERITY"), choices: Severity.allCases.map(\.name),
        help: "exit 1 when a finding is at least this severe (medium by default)")

    static let audit = Command(spec: CommandSpec(
        name: "audit",
        summary: "Security and conformance findings, with evidence; exit 1 when one reaches --fail-on.",
        usage: "[options] [capture ...]", options: [failOn] + Options.analysis, positionalName: "capture", positionalKind: .file,
        details: """
            Each finding names its rule, severity, why it matters with the HAP rule it breaks
            (docs/audit-rules.md), and its evidence: packets, times, connections, values. Rules
            that check proofs and signatures need the key log; --setup-code and --setup-id enable
            the rules about them. --format json or html writes the same findings for a CI system
            or a person.

            rules:
            \(AuditRule.catalogue.map { "  \($0.id) (\($0.severity.name)): \($0.title)" }.joined(separator: "\n"))

            exit status: 0 no finding reaches --fail-on; 1 one does; 2 usage or input error, or a
            damaged capture (the packets before the damage are audited).
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        let threshold = invocation.arguments.value(failOn.key)
            .flatMap(Severity.init(name:)) ?? .medium
        let configuration = try invocation.analysisConfiguration()
        let outcome = try analyse(invocation, configuration: configuration, streams: false) { output -> CaptureReport in
            if invocation.format == .html { return HTMLCaptureReport(output: output, title: invocation.reportTitle) }
            return AuditReport(output: output, settings: invocation.reportSettings)
        }
        guard outcome.status == .success else { return outcome.status }
        return outcome.findings.contains { $0.severity >= threshold } ? .findings : .success
    }
}
