import Capture
import Foundation
import HAPAnalysis
import Packets
import Reports

/// Captures of the repository's `captures/` directory analysed into HTML reports, and a few
/// findings of every severity to show beside them.
enum HTMLReportFixtures {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the browser test keeps what it rendered and saw, for a human to open.
    static let artifactsDirectory = packageDirectory.appendingPathComponent(".build/artifacts/html-report")

    /// Analyses `captures/<name>.pcap` (or `.pcapng`) with its key log into a builder.
    static func builder(capture name: String, withKeys: Bool = true, limits: HTMLReportLimits = HTMLReportLimits()) throws -> HTMLReportBuilder {
        let base = packageDirectory.appendingPathComponent("captures").appendingPathComponent(name).path
        let capture = FileManager.default.fileExists(atPath: base + ".pcap") ? base + ".pcap" : base + ".pcapng"
        var keyLog = KeyLog()
        if withKeys {
            try keyLog.add(parsing: String(contentsOfFile: base + ".keylog", encoding: .utf8), source: name + ".keylog")
        }
        return try builder(files: [capture], keyLog: keyLog, limits: limits)
    }

    static func builder(files: [String], keyLog: KeyLog = KeyLog(), limits: HTMLReportLimits = HTMLReportLimits()) throws -> HTMLReportBuilder {
        let builder = HTMLReportBuilder(limits: limits)
        let analyzer = CaptureAnalyzer(configuration: AnalysisConfiguration(keyLog: keyLog)) { builder.consume($0) }
        analyzer.analyze(try CaptureFileReader(files: files))
        return builder
    }

    /// How often `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// Findings of every severity, with evidence that points into `bridge.pcap`; one carries
    /// markup in every field, as a hostile capture could put it there through the audit.
    static let findings: [ReportFinding] = [
        ReportFinding(
            rule: "session/nonce-skip", severity: .high, title: "Frame counter skipped",
            explanation: "HAP: the nonce of each frame is its counter; skipping values breaks replay protection.",
            evidence: [
                ReportFinding.Evidence(packet: 64, time: Timestamp(seconds: 1_796_011_386, nanoseconds: 0),
                                       connection: "#2 10.77.0.1:49202 → 10.77.0.2:51826", detail: "counter 2 where 1 was due"),
            ]),
        ReportFinding(
            rule: "discovery/txt-malformed", severity: .medium, title: "TXT value <b>not</b> \"quoted\"",
            explanation: "A TXT value held <img src=x onerror=alert(4)> & friends.",
            evidence: [ReportFinding.Evidence(packet: 2, time: nil, connection: nil, detail: "md=<script>alert(5)</script>")]),
        ReportFinding(
            rule: "pairing/setup-no-backoff", severity: .low, title: "No back-off after failed pair-setups",
            explanation: "HAP: an accessory must answer Backoff after repeated wrong setup codes.", evidence: []),
        ReportFinding(
            rule: "database/non-hap-key", severity: .info, title: "Database carries keys HAP does not define",
            explanation: "Vendor extras are ignored by controllers.",
            evidence: [ReportFinding.Evidence(packet: 43, time: nil, connection: nil, detail: "aid 1")]),
    ]
}
