import Capture
import Foundation
import HAPAnalysis
import HAPJSON

/// A capture of `captures/` with its key log and the peers' ground truth, analysed once.
struct RecordedCapture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("captures")

    static let clean = ["bridge", "wrong-code", "large-bridge", "lossy-link", "ipv6", "multi-connection", "pairings", "srp-mismatch"]
    static let misbehaving = [
        "unverified-access", "paired-setup", "brute-force", "bad-srp", "verify-reuse", "pairings-admin",
        "frame-faults", "bad-events", "bad-discovery", "bad-database", "bad-json",
    ]

    let name: String
    let events: [HAPEvent]
    let truth: JSONValue

    /// Analyses `captures/<name>.pcap` (or `.pcapng`) with the lines of its key log that
    /// `keyLogFilter` keeps (none when `withKeys` is false); `corruptKeys` flips a bit of every
    /// session key so that none fits.
    init(
        _ name: String, withKeys: Bool = true, keyLogFilter: (String) -> Bool = { _ in true },
        corruptKeys: Bool = false, setupCode: String? = nil
    ) throws {
        self.name = name
        let base = Self.directory.appendingPathComponent(name)
        let capture = FileManager.default.fileExists(atPath: base.path + ".pcap") ? base.path + ".pcap" : base.path + ".pcapng"
        var keyLog = KeyLog()
        if withKeys {
            var lines = try String(contentsOfFile: base.path + ".keylog", encoding: .utf8)
                .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && keyLogFilter($0) }
            if corruptKeys {
                lines = lines.map { line in
                    guard !line.contains("_LTPK"), let last = line.last, let digit = last.hexDigitValue else { return line }
                    return String(line.dropLast()) + String((digit ^ 1), radix: 16)
                }
            }
            try keyLog.add(parsing: lines.joined(separator: "\n"), source: name + ".keylog")
        }
        var events: [HAPEvent] = []
        let analyzer = CaptureAnalyzer(configuration: AnalysisConfiguration(keyLog: keyLog, setupCode: setupCode)) { events.append($0) }
        analyzer.analyze(try CaptureFileReader(files: [capture]))
        self.events = events
        truth = try JSONDocument(bytes: Array(Data(contentsOf: URL(fileURLWithPath: base.path + ".truth.json")))).root
    }

    /// The truth's messages per connection (client endpoint) and direction, in the order sent.
    var truthMessages: [String: [HAPDirection: [[UInt8]]]] {
        var result: [String: [HAPDirection: [[UInt8]]]] = [:]
        for connection in truth["connections"]?.arrayValue ?? [] {
            guard let client = connection["client"]?.stringValue else { continue }
            for message in connection["messages"]?.arrayValue ?? [] {
                guard let direction = message["direction"]?.stringValue.flatMap(HAPDirection.init(rawValue:)),
                      let data = message["data"]?.stringValue.flatMap(Base64.decode) else { continue }
                result[client, default: [:]][direction, default: []].append(data)
            }
        }
        return result
    }

    /// The messages hapscope recovered, keyed the same way, as the exact bytes on the wire
    /// (head plus de-chunked body when the message was chunked).
    var decodedMessages: [String: [HAPDirection: [[UInt8]]]] {
        var result: [String: [HAPDirection: [[UInt8]]]] = [:]
        for event in events {
            guard case .httpMessage(let http) = event.kind else { continue }
            let bytes = http.message.rawBytes.map(Array.init) ?? Array(http.message.headBytes) + Array(http.message.body)
            result[http.connection.controller.description, default: [:]][http.direction, default: []].append(bytes)
        }
        return result
    }

    func events<T>(_ extract: (HAPEvent.Kind) -> T?) -> [T] {
        events.compactMap { extract($0.kind) }
    }
}
