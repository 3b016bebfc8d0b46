import Capture
import HAPCore
import HAPEvents
import Reports
import Testing
import TestSupport
@testable import HAPAnalysis

/// `--jobs N`: the sharded run's event stream is one job's, event for event, on every recorded
/// capture and on runs of several files; and where a fact crosses shards, the run falls back to
/// one job and still delivers one job's stream.
@Suite("Several jobs: the event stream of one job")
struct ShardedAnalysisTests {
    /// Every recorded capture: HAP over IP (pcap and pcapng), over CoAP, over Bluetooth LE (pcap
    /// and btsnoop), each with its key log.
    static let captures: [(path: String, keyLog: String)] = {
        let named = RecordedCapture.all + RecordedCapture.coap + RecordedCapture.ble
        var inputs = named.map { name in (RecordedCapture(name).capturePath, name) }
        inputs += RecordedCapture.ble.map { name in (RecordedCapture.directory.appendingPathComponent(name + ".btsnoop").path, name) }
        return inputs.map { ($0.0, $0.1) }
    }()

    /// The events as the NDJSON report writes them, one line each.
    static func lines(_ events: [HAPEvent]) -> [String] {
        events.map { EventJSON.encode($0, clock: CaptureClock()) }
    }

    static func oneJob(_ files: [String], _ configuration: AnalysisConfiguration) throws -> [HAPEvent] {
        var events: [HAPEvent] = []
        AnalysisPipeline(configuration: configuration, consumers: [EventSink { events.append($0) }]).run(try CaptureFileReader(files: files))
        return events
    }

    static func jobs(_ count: Int, _ files: [String], _ configuration: AnalysisConfiguration) throws -> ([HAPEvent], JobsOutcome) {
        var events: [HAPEvent] = []
        let outcome = ShardedAnalysis(configuration: configuration, consumers: [EventSink { events.append($0) }], jobs: count)
            .run(try CaptureFileReader(files: files))
        return (events, outcome)
    }

    /// Fails with the lines that differ.
    static func expectSameStream(_ sharded: [HAPEvent], _ single: [HAPEvent], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        ExpectedDecode.expect(lines(sharded).joined(separator: "\n"), equals: lines(single).joined(separator: "\n"), name: name, sourceLocation: sourceLocation)
    }

    @Test("every recorded capture gives one job's events in 2 and 3 jobs", arguments: captures.map(\.path))
    func recordedCapture(_ path: String) throws {
        let keyLog = try RecordedCapture(Self.captures.first { $0.path == path }!.keyLog).keyLog()
        let configuration = AnalysisConfiguration(keyLog: keyLog)
        let single = try Self.oneJob([path], configuration)
        for count in [2, 3] {
            let (sharded, outcome) = try Self.jobs(count, [path], configuration)
            Self.expectSameStream(sharded, single, "\(path) in \(count) jobs")
            // One capture's connections share no fact across accessory addresses.
            #expect(outcome.fallback == nil, "\(path) in \(count) jobs: \(outcome.fallback!)")
        }
    }

    @Test("a run of several files, databases and pairings carried from one to the next, gives one job's events")
    func severalFiles() throws {
        let names = ["config-a", "config-b", "config-c", "config-d", "pairings", "pairings-admin", "mid-session"]
        var keyLog = KeyLog()
        for name in names {
            try keyLog.add(parsing: try RecordedCapture(name).keyLogLines().joined(separator: "\n"), source: name + ".keylog")
        }
        let files = names.map { RecordedCapture($0).capturePath }
        let configuration = AnalysisConfiguration(keyLog: keyLog)
        let single = try Self.oneJob(files, configuration)
        for count in [2, 3, 5] {
            let (sharded, outcome) = try Self.jobs(count, files, configuration)
            Self.expectSameStream(sharded, single, "\(names) in \(count) jobs")
            #expect(outcome.fallback == nil, "\(count) jobs: \(outcome.fallback!)")
        }
    }

    @Test("one job reads standard input and runs of one job, as AnalysisPipeline does")
    func oneJobWhenAsked() throws {
        let path = RecordedCapture("bridge").capturePath
        let configuration = AnalysisConfiguration(keyLog: try RecordedCapture("bridge").keyLog())
        let (sharded, outcome) = try Self.jobs(1, [path], configuration)
        #expect(outcome.fallback == nil)
        Self.expectSameStream(sharded, try Self.oneJob([path], configuration), "bridge in 1 job")
    }
}

/// Runs whose facts cross shards fall back to one job, and still deliver one job's stream.
@Suite("Several jobs: the fallback to one job")
struct ShardedFallbackTests {
    @Test("one device id at two accessory addresses (IPv4, then IPv6): the database crosses shards, the run falls back, the stream is one job's")
    func deviceAtTwoAddresses() throws {
        var keyLog = KeyLog()
        for name in ["config-a", "ipv6"] {
            try keyLog.add(parsing: try RecordedCapture(name).keyLogLines().joined(separator: "\n"), source: name + ".keylog")
        }
        let files = ["config-a", "ipv6"].map { RecordedCapture($0).capturePath }
        let configuration = AnalysisConfiguration(keyLog: keyLog)
        let single = try ShardedAnalysisTests.oneJob(files, configuration)
        for count in [2, 3] {
            let (sharded, outcome) = try ShardedAnalysisTests.jobs(count, files, configuration)
            ShardedAnalysisTests.expectSameStream(sharded, single, "config-a + ipv6 in \(count) jobs")
            #expect(outcome.fallback?.reason.contains("accessory database of 1A:2B:3C:4D:5E:6F") == true)
            #expect(outcome.fallback?.description.hasPrefix("fell back to one job at packet #") == true)
        }
    }
}
