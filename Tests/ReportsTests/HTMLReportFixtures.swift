import Capture
import Foundation
import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import Reports
import TestSupport

/// Captures of the repository's `captures/` directory analysed into HTML reports, and a few
/// findings of every severity to show beside them.
enum HTMLReportFixtures {
    /// Where the browser test keeps what it rendered and saw, for a human to open.
    static let artifactsDirectory = RecordedCapture.packageDirectory.appendingPathComponent(".build/artifacts/html-report")

    /// Analyses `captures/<name>.pcap` (or `.pcapng`) with its key log into a builder.
    static func builder(capture name: String, withKeys: Bool = true, limits: HTMLReportLimits = HTMLReportLimits()) throws -> HTMLReportBuilder {
        let capture = RecordedCapture(name)
        return try builder(files: [capture.capturePath], keyLog: withKeys ? capture.keyLog() : KeyLog(), limits: limits)
    }

    static func builder(files: [String], keyLog: KeyLog = KeyLog(), limits: HTMLReportLimits = HTMLReportLimits()) throws -> HTMLReportBuilder {
        let builder = HTMLReportBuilder(limits: limits)
        AnalysisPipeline(configuration: AnalysisConfiguration(keyLog: keyLog), consumers: [builder]).run(try CaptureFileReader(files: files))
        return builder
    }

    /// How often `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// Findings of every severity, with evidence that points into `bridge.pcap`; one carries
    /// markup in every field, as a hostile capture could put it there through the audit.
    static let findings: [Finding] = [
        .example(
            "session/nonce-skip", .high, title: "Frame counter skipped",
            explanation: "HAP: the nonce of each frame is its counter; skipping values breaks replay protection.",
            evidence: [(64, Timestamp(seconds: 1_796_011_386, nanoseconds: 0),
                        ConnectionInfo(tcpConnection: 2, controller: Endpoint(address: .v4(0x0A4D_0001), port: 49202),
                                       accessory: Endpoint(address: .v4(0x0A4D_0002), port: 51826)),
                        "counter 2 where 1 was due")]),
        .example(
            "discovery/txt-malformed", .medium, title: "TXT value <b>not</b> \"quoted\"",
            explanation: "A TXT value held <img src=x onerror=alert(4)> & friends.",
            evidence: [(2, nil, nil, "md=<script>alert(5)</script>")]),
        .example(
            "pairing/setup-no-backoff", .low, title: "No back-off after failed pair-setups",
            explanation: "HAP: an accessory must answer Backoff after repeated wrong setup codes."),
        .example(
            "database/non-hap-key", .info, title: "Database carries keys HAP does not define",
            explanation: "Vendor extras are ignored by controllers.", evidence: [(43, nil, nil, "aid 1")]),
    ]
}
