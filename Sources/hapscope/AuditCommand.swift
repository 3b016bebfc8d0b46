import ArgumentParsing
import Audit
import HAPEvents
import Reports

extension Command {
    static let failOn = OptionSpec(
        ["--fail-on"], .value(name: "SEVERITY"), choices: Severity.allCases.map(\.name),
        help: "exit 1 when a finding is at least this severe (medium by default)")

    static let setupCodeKind = OptionSpec(
        ["--setup-code-kind"], .value(name: "KIND"), choices: SetupCodeKind.allCases.map(\.rawValue),
        help: "provisioned (on a label; a repeated SRP salt is by design) or generated (shown on a display)")

    static let auditFormat = OptionSpec(
        ["--format"], .value(name: "FORMAT"), choices: OutputFormat.allCases.map(\.rawValue) + ["junit"],
        help: "the output format, text by default (JSON schema: docs/json.md); junit is JUnit XML for CI systems")

    private static let auditOptions = [failOn, setupCodeKind, Options.dump, auditFormat]
        + Options.analysis(excluding: [Options.format])

    static let audit = Command(spec: CommandSpec(
        name: "audit",
        summary: "Security and conformance findings, with evidence; exit 1 when one reaches --fail-on.",
        usage: "[options] [capture|dump.json ...]", options: auditOptions, positionalName: "capture or dump", positionalKind: .file,
        details: """
            Each finding names its rule, severity, who departs from HAP (the accessory or the
            controller), why it matters with the HAP rule it breaks (docs/audit-rules.md), and its
            evidence: packets, times, connections, values, byte offsets. Rules that check proofs and
            signatures need the key log; --setup-code and --setup-id enable the rules about them;
            --setup-code-kind says whether the setup code is provisioned or generated, which the
            wire cannot show. --format json or html writes the same findings for a program or a
            person; --format junit writes one test case per input and rule, failed when a finding
            of the rule reaches --fail-on.

            An /accessories dump (a file whose first character is { or [, or any input with
            --dump) is audited by the database rules alone, as an input of its own: its shape says
            whether it was read over IP or over Bluetooth LE or Thread, and so how its tlv8 and data
            values are written. Several captures of one accessory, given in the order they were
            made, are compared: a changed database without a new c#, a new c# for the same
            database, and renumbered iids are found across them.

            rules:
            \(AuditRule.catalogue.map { "  \($0.id) (\($0.severity.name), \($0.party)): \($0.title)" }.joined(separator: "\n"))

            exit status: 0 no finding reaches --fail-on; 1 one does; 2 usage or input error, or a
            damaged capture (the packets before the damage are audited).
            """, sharedDetails: Options.analysisDetails)) { invocation throws(CommandFailure) in
        let threshold = invocation.arguments.value(failOn.key)
            .flatMap(Severity.init(name:)) ?? .medium
        let configuration = try invocation.analysisConfiguration()
        let audit = AuditConfiguration(setupCodeKind: invocation.arguments.value(setupCodeKind.key).flatMap(SetupCodeKind.init(rawValue:)))
        let inputs = invocation.captureFiles
        let forceDump = invocation.arguments.has(Options.dump.key)
        let dumpPaths = inputs.filter { forceDump || DumpInput.isDump($0) }
        let dumps = try dumpPaths.map { (path) throws(CommandFailure) in try DumpInput.read(path, limits: configuration.limits.json) }
        let captures = inputs.filter { !dumpPaths.contains($0) }
        let junit = invocation.arguments.value(auditFormat.key) == "junit"
        let outcome = try analyse(
            invocation, configuration: configuration, audit: audit, files: captures, dumps: dumps, streams: false
        ) { output -> CaptureReport in
            if junit { return AuditJUnitReport(output: output, threshold: threshold) }
            if invocation.format == .html { return HTMLCaptureReport(output: output, title: invocation.reportTitle) }
            return AuditReport(output: output, settings: invocation.reportSettings)
        }
        guard outcome.status == .success else { return outcome.status }
        return outcome.findings.contains { $0.severity >= threshold } ? .findings : .success
    }
}
