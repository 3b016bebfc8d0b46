import Capture
import Foundation
import HAPAnalysis
@testable import Audit

/// One recorded scenario of `captures/`: the capture, its key log and its ground truth, read
/// next to this source file (the repository root is three levels up).
struct RecordedCapture: CustomStringConvertible, Sendable {
    static let clean = ["bridge", "wrong-code", "large-bridge", "lossy-link", "ipv6", "multi-connection", "pairings", "srp-mismatch"]
    static let misbehaving = [
        "unverified-access", "paired-setup", "brute-force", "bad-srp", "verify-reuse", "pairings-admin", "frame-faults",
        "bad-events", "bad-discovery", "bad-database", "bad-json",
    ]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("captures")

    let name: String

    init(_ name: String) {
        self.name = name
    }

    var description: String { name }

    /// The `misbehaviours` the recording toolkit journalled: what the audit must find.
    struct Misbehaviour: Decodable, Sendable, CustomStringConvertible {
        let rule: String
        /// The controller's `ip:port`, or nil for mDNS and the accessory as a whole.
        let connection: String?
        let detail: String

        var description: String { "\(rule) on \(connection ?? "no connection")" }
    }

    struct Truth: Decodable, Sendable {
        let setupCode: String
        let setupId: String
        let misbehaviours: [Misbehaviour]
    }

    func truth() throws -> Truth {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).truth.json"))
        return try JSONDecoder().decode(Truth.self, from: data)
    }

    /// The capture file: `.pcap`, or `.pcapng` for the dumpcap recording.
    var captureFile: URL {
        let pcap = Self.directory.appendingPathComponent("\(name).pcap")
        return FileManager.default.fileExists(atPath: pcap.path) ? pcap : Self.directory.appendingPathComponent("\(name).pcapng")
    }

    /// Analyses the capture with its key log and audits the event stream.
    func audit(
        setupCode: String? = nil, setupID: String? = nil, thresholds: AuditThresholds = AuditThresholds(), keyLog useKeyLog: Bool = true
    ) throws -> [Finding] {
        var keyLog = KeyLog()
        if useKeyLog {
            let path = Self.directory.appendingPathComponent("\(name).keylog").path
            try keyLog.add(parsing: String(contentsOfFile: path, encoding: .utf8), source: path)
        }
        let auditor = Auditor(configuration: try AuditConfiguration(setupCode: setupCode, setupID: setupID, thresholds: thresholds))
        let reader = try CaptureFileReader(files: [captureFile.path])
        let analyzer = CaptureAnalyzer(configuration: AnalysisConfiguration(keyLog: keyLog)) { auditor.consume($0) }
        analyzer.analyze(reader)
        return auditor.findings
    }

    /// Audits with what the truth file says the user knows: the setup code and setup ID.
    func auditAsTheUserWould() throws -> [Finding] {
        let truth = try truth()
        return try audit(setupCode: truth.setupCode, setupID: truth.setupId)
    }
}

extension Finding {
    /// Whether the finding is about the connection whose controller is `client` (`ip:port`):
    /// its own connection, or one its evidence names.
    func concerns(client: String) -> Bool {
        connection?.controller.description == client || evidence.contains { $0.connection?.controller.description == client }
    }
}
