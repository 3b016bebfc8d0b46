import Audit
import Capture
import Foundation
import HAPAnalysis
import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON

/// One recorded scenario of the corpus in `captures/`: the capture, its key log and the peers'
/// ground truth (captures/README.md), found from this source file so that tests run from
/// anywhere.
///
/// The scenarios are the truth files on disk, so a newly recorded capture is tested without
/// editing a list: it is clean when its truth declares no misbehaviour.
public struct RecordedCapture: Sendable, CustomStringConvertible, Hashable {
    public static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let directory = packageDirectory.appendingPathComponent("captures")

    /// Every scenario of HAP over IP, by name, sorted.
    public static let all: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".truth.json") }.map { String($0.dropLast(".truth.json".count)) }.sorted()
    }()

    /// Every scenario of a transport's own folder (`ble`, `coap`), by name with the folder
    /// (`ble/lamp`), sorted.
    public static func all(in folder: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
        return files.filter { $0.hasSuffix(".truth.json") }.map { folder + "/" + $0.dropLast(".truth.json".count) }.sorted()
    }

    /// Every scenario of HAP over Bluetooth LE (`captures/ble/`) and over Thread (`captures/coap/`).
    public static let ble = all(in: "ble")
    public static let coap = all(in: "coap")

    /// The scenarios of the libraries as published.
    public static let clean: [String] = all.filter { (try? RecordedCapture($0).misbehaviours().isEmpty) == true }
    /// The scenarios in which a peer breaks HAP's rules on purpose (`misbehaviours`).
    public static let misbehaving: [String] = all.filter { !clean.contains($0) }

    /// Each scenario's predecessor: the capture of the same accessory (same device ID and the same
    /// long-term key, as the truth gives them) recorded just before it, by its first
    /// advertisement. Every other scenario has an accessory key of its own (captures/README.md).
    public static let predecessors: [String: String] = {
        let identities = all.compactMap { name -> (name: String, identity: String, start: Double)? in
            guard let truth = try? RecordedCapture(name).truth(), let accessory = truth["accessories"]?.arrayValue?.first,
                  let id = accessory["deviceId"]?.stringValue, let key = accessory["ltpk"]?.stringValue,
                  let start = truth["advertisements"]?.arrayValue?.compactMap({ $0["time"]?.numberValue?.doubleValue }).min()
            else { return nil }
            return (name, id + " " + key, start)
        }
        var result: [String: String] = [:]
        for capture in identities {
            let earlier = identities.filter { $0.identity == capture.identity && $0.start < capture.start }
            if let previous = earlier.max(by: { $0.start < $1.start }) { result[capture.name] = previous.name }
        }
        return result
    }()

    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    /// The capture of the same accessory recorded just before this one; the audit compares the two
    /// when they are read in one run (`config-a` before `config-b`).
    public var predecessor: RecordedCapture? { Self.predecessors[name].map(RecordedCapture.init) }

    // MARK: Files

    /// `NAME.pcap`, or `NAME.pcapng` for the dumpcap recording.
    public var capturePath: String {
        let base = Self.directory.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: base + ".pcap") ? base + ".pcap" : base + ".pcapng"
    }

    public var keyLogPath: String { Self.directory.appendingPathComponent(name + ".keylog").path }
    public var truthPath: String { Self.directory.appendingPathComponent(name + ".truth.json").path }

    /// A file of `captures/` by name, such as `bridge.pcap`.
    public static func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    public static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(file))))
    }

    // MARK: The key log

    /// The key log's lines that `keep` accepts (comments never), parsed as `--keylog` parses them.
    public func keyLog(keeping keep: (String) -> Bool = { _ in true }) throws -> KeyLog {
        let lines = try keyLogLines().filter(keep)
        return try KeyLog(parsing: lines.joined(separator: "\n"), source: name + ".keylog")
    }

    /// The key log's lines without its comments.
    public func keyLogLines() throws -> [String] {
        try String(contentsOfFile: keyLogPath, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// The secrets of the key log: the last field of every line whose label is not a public key.
    public func secrets() throws -> [String] {
        try keyLogLines().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, !fields[0].hasSuffix("_LTPK") else { return nil }
            return String(fields[2])
        }
    }

    /// The session keys the key log gives directly (`CONTROL_WRITE_KEY`, `CONTROL_READ_KEY`).
    public func sessionKeys() throws -> [String] {
        try keyLogLines().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "CONTROL_WRITE_KEY" || fields[0] == "CONTROL_READ_KEY" else { return nil }
            return String(fields[2])
        }
    }

    // MARK: The truth

    public func truth() throws -> JSONValue {
        try JSONDocument(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: truthPath)))).root
    }

    /// The truth's messages per connection (client endpoint) and direction, in the order sent:
    /// those the capture holds whole (a capture that starts mid-session misses the first ones, and
    /// may hold only the end of one, `"captured": "partial"`).
    public func truthMessages() throws -> [String: [HAPDirection: [[UInt8]]]] {
        var result: [String: [HAPDirection: [[UInt8]]]] = [:]
        for connection in try truth()["connections"]?.arrayValue ?? [] {
            guard let client = connection["client"]?.stringValue else { continue }
            for message in connection["messages"]?.arrayValue ?? [] {
                guard message["captured"]?.stringValue ?? "whole" == "whole",
                      let direction = message["direction"]?.stringValue.flatMap(HAPDirection.init(rawValue:)),
                      let data = message["data"]?.stringValue.flatMap(Base64.decode) else { continue }
                result[client, default: [:]][direction, default: []].append(data)
            }
        }
        return result
    }

    /// Where a capture that starts mid-session joined each direction of a connection already
    /// encrypted: the direction's first whole frame's counter, and the bytes before it.
    public struct CaptureStart: Sendable, Hashable {
        public let firstFrameCounter: UInt64
        public let skippedBytes: Int
    }

    /// The truth's `captureStart` of every connection that has one, by client endpoint.
    public func captureStarts() throws -> [String: [HAPDirection: CaptureStart]] {
        var result: [String: [HAPDirection: CaptureStart]] = [:]
        for connection in try truth()["connections"]?.arrayValue ?? [] {
            guard let client = connection["client"]?.stringValue, let start = connection["captureStart"] else { continue }
            for direction in HAPDirection.allCases {
                guard let entry = start[direction.rawValue], let counter = entry["firstFrameCounter"]?.numberValue?.uint64Value,
                      let skipped = entry["skippedBytes"]?.numberValue?.int64Value else { continue }
                result[client, default: [:]][direction] = CaptureStart(firstFrameCounter: counter, skippedBytes: Int(skipped))
            }
        }
        return result
    }

    /// What the recording toolkit journalled as broken on purpose: what the audit must find.
    public struct Misbehaviour: Sendable, Hashable, CustomStringConvertible {
        public let rule: String
        /// The controller's `ip:port`, or nil for mDNS and the accessory as a whole.
        public let connection: String?
        /// The connection's number where the truth counts connections (HAP over Bluetooth LE:
        /// 1, 2, … in the order they opened).
        public var connectionNumber: Int? = nil
        public let detail: String

        public var description: String { "\(rule) on \(connection ?? connectionNumber.map { "connection \($0)" } ?? "no connection")" }

        /// Declared as HAP's design rather than a misbehaviour (`BY DESIGN, NOT A MISBEHAVIOUR`):
        /// the audit must report it, at info at most.
        public var isByDesign: Bool { detail.hasPrefix("BY DESIGN") }
    }

    public func misbehaviours() throws -> [Misbehaviour] {
        try truth()["misbehaviours"]?.arrayValue?.map { entry in
            Misbehaviour(rule: entry["rule"]?.stringValue ?? "", connection: entry["connection"]?.stringValue,
                         connectionNumber: entry["connection"]?.numberValue?.int64Value.map(Int.init),
                         detail: entry["detail"]?.stringValue ?? "")
        } ?? []
    }

    /// How the setup code came to be, as the truth's notes say (`the setup code is PROVISIONED`):
    /// what the user knows and the wire cannot show.
    public func setupCodeKind() throws -> SetupCodeKind? {
        let notes = try truth()["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return notes.contains { $0.hasPrefix("the setup code is PROVISIONED") } ? .provisioned : nil
    }

    /// The setup code and setup ID the truth gives: what the user of the accessory knows. An empty
    /// one is none (homekit_python has no setup ID).
    public func setupCodeAndID() throws -> (code: SetupCode?, id: SetupID?) {
        let truth = try truth()
        func given(_ key: String) -> String? { truth[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        return (try given("setupCode").map { try SetupCode($0) }, try given("setupId").map { try SetupID($0) })
    }

    // MARK: Analysis

    /// Every event of analysing the capture with `configuration`, as `hapscope` runs it.
    public func events(_ configuration: AnalysisConfiguration) throws -> [HAPEvent] {
        var events: [HAPEvent] = []
        let sink = EventSink { events.append($0) }
        AnalysisPipeline(configuration: configuration, consumers: [sink]).run(try CaptureFileReader(files: [capturePath]))
        return events
    }

    /// The audit's findings on the capture analysed with its key log (unless `keyLog` is false),
    /// the setup code and setup ID given, and `configure`'s changes. A capture with a predecessor
    /// is read after it in one run, with both key logs, as a user audits one accessory's history.
    public func audit(
        setupCode: String? = nil, setupID: String? = nil, keyLog useKeyLog: Bool = true,
        thresholds: AuditThresholds = AuditThresholds(), setupCodeKind: SetupCodeKind? = nil, withPredecessor: Bool = true,
        configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws -> [Finding] {
        let run = (withPredecessor ? predecessor.map { [$0] } ?? [] : []) + [self]
        return try Self.audit(run, setupCode: setupCode, setupID: setupID, keyLog: useKeyLog, thresholds: thresholds,
                              setupCodeKind: setupCodeKind, configure: configure)
    }

    /// The audit's findings on several captures read in order in one run, with their key logs.
    public static func audit(_ names: [String]) throws -> [Finding] {
        try audit(names.map(RecordedCapture.init))
    }

    private static func audit(
        _ run: [RecordedCapture], setupCode: String? = nil, setupID: String? = nil, keyLog useKeyLog: Bool = true,
        thresholds: AuditThresholds = AuditThresholds(), setupCodeKind: SetupCodeKind? = nil,
        configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws -> [Finding] {
        var keys = KeyLog()
        if useKeyLog {
            for capture in run {
                try keys.add(parsing: try capture.keyLogLines().joined(separator: "\n"), source: capture.name + ".keylog")
            }
        }
        var configuration = AnalysisConfiguration(keyLog: keys)
        configuration.setupCode = try setupCode.map { try SetupCode($0) }
        configuration.setupID = try setupID.map { try SetupID($0) }
        configure(&configuration)
        let auditor = Auditor(configuration: AuditConfiguration(thresholds: thresholds, setupCodeKind: setupCodeKind))
        AnalysisPipeline(configuration: configuration, consumers: [auditor])
            .run(try CaptureFileReader(files: run.map(\.capturePath)))
        return auditor.findings
    }

    /// Each misbehaviour the truth file declares, with the findings of its rule in the audit the
    /// user would run; throws when the truth names a rule the catalogue does not have.
    public func findingsOfDeclaredMisbehaviours() throws -> [(misbehaviour: Misbehaviour, findings: [Finding])] {
        let findings = try auditAsTheUserWould()
        return try misbehaviours().map { misbehaviour in
            guard let rule = AuditRule.named(misbehaviour.rule) else { throw UnknownRule(name: misbehaviour.rule) }
            return (misbehaviour, findings.filter { $0.rule == rule })
        }
    }

    public struct UnknownRule: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "no audit rule named \(name)" }
    }

    /// Audits with what the truth file says the user knows: the setup code and setup ID, and how
    /// the setup code came to be.
    public func auditAsTheUserWould() throws -> [Finding] {
        let (code, id) = try setupCodeAndID()
        return try audit(setupCodeKind: try setupCodeKind()) { configuration in
            configuration.setupCode = code
            configuration.setupID = id
        }
    }
}
