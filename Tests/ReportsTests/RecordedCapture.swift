import Capture
import Foundation
import HAPAnalysis
import Packets
import Reports

/// A capture of `captures/` analysed once with its key log: the events and the first packet's
/// time, to feed reports in-process as the command line does.
struct RecordedCapture: Sendable {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = packageDirectory.appendingPathComponent("captures")

    /// Every bundled capture: the clean ones and the misbehaving ones.
    static let all = [
        "bridge", "wrong-code", "large-bridge", "lossy-link", "ipv6", "multi-connection", "pairings", "srp-mismatch",
        "unverified-access", "paired-setup", "brute-force", "bad-srp", "verify-reuse", "pairings-admin",
        "frame-faults", "bad-events", "bad-discovery", "bad-database", "bad-json",
    ]

    let name: String
    let events: [HAPEvent]
    let origin: Timestamp?

    static func path(_ name: String) -> String {
        let base = directory.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: base + ".pcap") ? base + ".pcap" : base + ".pcapng"
    }

    static func keyLogPath(_ name: String) -> String {
        directory.appendingPathComponent(name + ".keylog").path
    }

    /// The key log's lines, parsed as `hapscope --keylog` parses them.
    static func keyLog(_ name: String) throws -> KeyLog {
        try KeyLog(parsing: String(contentsOfFile: keyLogPath(name), encoding: .utf8), source: name + ".keylog")
    }

    /// The secrets of the key log: the last field of every line whose label is not a public key.
    static func secrets(_ name: String) throws -> [String] {
        try String(contentsOfFile: keyLogPath(name), encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, !line.hasPrefix("#"), !fields[0].hasSuffix("_LTPK") else { return nil }
            return String(fields[2])
        }
    }

    /// The session keys the key log gives directly (`CONTROL_WRITE_KEY`, `CONTROL_READ_KEY`).
    static func sessionKeys(_ name: String) throws -> [String] {
        try String(contentsOfFile: keyLogPath(name), encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "CONTROL_WRITE_KEY" || fields[0] == "CONTROL_READ_KEY" else { return nil }
            return String(fields[2])
        }
    }

    init(
        _ name: String, withKeys: Bool = true, revealsSessionKeys: Bool = false,
        configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws {
        self.name = name
        var configuration = AnalysisConfiguration(revealsSessionKeys: revealsSessionKeys)
        if withKeys { configuration.keyLog = try Self.keyLog(name) }
        configure(&configuration)
        var events: [HAPEvent] = []
        let analyzer = CaptureAnalyzer(configuration: configuration) { events.append($0) }
        let reader = try CaptureFileReader(files: [Self.path(name)])
        var origin: Timestamp?
        var opened = false
        while let packet = try reader.next() {
            if origin == nil { origin = packet.info.timestamp }
            if !opened {
                opened = true
                analyzer.inputOpened(name: URL(fileURLWithPath: Self.path(name)).lastPathComponent, linkType: packet.linkType)
            }
            analyzer.process(packet)
        }
        analyzer.finish()
        self.events = events
        self.origin = origin
    }

    /// The body of the first `/accessories` response: a real attribute database, as a dump.
    var accessoriesBody: [UInt8]? {
        for event in events {
            if case .httpMessage(let http) = event.kind, http.request?.target == "/accessories" {
                return Array(http.message.body)
            }
        }
        return nil
    }

    /// What `report` writes when fed this capture's events, as the command line feeds it.
    func render(_ makeReport: (TextBuffer) -> CaptureReport, findings: [ReportFinding]? = nil) -> TextBuffer {
        let buffer = TextBuffer()
        let report = makeReport(buffer)
        report.clock.origin = origin
        for event in events { report.consume(event) }
        report.finish(findings: findings)
        return buffer
    }
}
