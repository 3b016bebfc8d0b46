import Capture
import HAPCore
import HAPEvents
import Testing
import TestSupport
@testable import HAPAnalysis

/// `--jobs N`: the sharded run's event stream is one job's, event for event, on every recorded
/// capture and on runs of several files, with the shards made in turn and on threads.
@Suite("Several jobs: the event stream of one job")
struct ShardedAnalysisTests {
    /// Every recorded capture: HAP over IP (pcap and pcapng), over CoAP, over Bluetooth LE (pcap
    /// and btsnoop), each with its key log.
    static let captures: [(path: String, scenario: String)] = {
        let named = RecordedCapture.all + RecordedCapture.coap + RecordedCapture.ble
        return named.map { (RecordedCapture($0).capturePath, $0) }
            + RecordedCapture.ble.map { (RecordedCapture.directory.appendingPathComponent($0 + ".btsnoop").path, $0) }
    }()

    @Test("every recorded capture gives one job's events in 2 and 3 jobs", arguments: captures.map(\.path))
    func recordedCapture(_ path: String) throws {
        let scenario = Self.captures.first { $0.path == path }!.scenario
        let configuration = AnalysisConfiguration(keyLog: try RecordedCapture(scenario).keyLog())
        for outcome in try JobsComparison.expectOneJobsStream([path], configuration, name: path) {
            // One capture's connections share no fact across accessory addresses.
            #expect(outcome.fallback == nil, "\(path): \(outcome.fallback!)")
        }
    }

    @Test("a run of several files, databases and pairings carried from one to the next, gives one job's events")
    func severalFiles() throws {
        let names = ["config-a", "config-b", "config-c", "config-d", "pairings", "pairings-admin", "mid-session"]
        var keyLog = KeyLog()
        for name in names {
            try keyLog.add(parsing: try RecordedCapture(name).keyLogLines().joined(separator: "\n"), source: name + ".keylog")
        }
        let outcomes = try JobsComparison.expectOneJobsStream(
            names.map { RecordedCapture($0).capturePath }, AnalysisConfiguration(keyLog: keyLog), jobs: [2, 3, 5], name: "\(names)")
        for outcome in outcomes {
            #expect(outcome.fallback == nil, "\(outcome.fallback!)")
        }
    }

    @Test("the shards' threads with chunks of 2 calls and a window of 8 units: the reader pushes, merges and waits between packets, and the stream is one job's", arguments: ["bridge", "multi-connection", "mid-session", "event-storm", "lossy-link"])
    func smallBatches(_ scenario: String) throws {
        let path = RecordedCapture(scenario).capturePath
        let configuration = AnalysisConfiguration(keyLog: try RecordedCapture(scenario).keyLog())
        for jobs in [2, 3] {
            var events: [HAPEvent] = []
            var analysis = ShardedAnalysis(configuration: configuration, consumers: [EventSink { events.append($0) }], jobs: jobs)
            analysis.batching = ThreadedShards.Batching(chunk: 2, windowUnits: 8)
            let outcome = analysis.run(try CaptureFileReader(files: [path]))
            #expect(outcome.fallback == nil)
            JobsComparison.expectSameStream(events, try JobsComparison.oneJob([path], configuration), "\(scenario) in \(jobs) jobs, small batches")
        }
    }

    @Test("one job runs as AnalysisPipeline does")
    func oneJobWhenAsked() throws {
        let path = RecordedCapture("bridge").capturePath
        let configuration = AnalysisConfiguration(keyLog: try RecordedCapture("bridge").keyLog())
        let (sharded, outcome) = try JobsComparison.jobs(1, [path], configuration)
        #expect(outcome.fallback == nil)
        JobsComparison.expectSameStream(sharded, try JobsComparison.oneJob([path], configuration), "bridge in 1 job")
    }
}

/// Runs whose facts cross shards fall back to one job, and still deliver one job's stream.
@Suite("Several jobs: the fallback to one job")
struct ShardedFallbackTests {
    @Test("one device id at two accessory addresses (IPv4, then IPv6): in three jobs they are on two shards, the database crosses them and the run falls back; in two both are on one shard and nothing crosses; the stream is one job's")
    func deviceAtTwoAddresses() throws {
        var keyLog = KeyLog()
        for name in ["config-a", "ipv6"] {
            try keyLog.add(parsing: try RecordedCapture(name).keyLogLines().joined(separator: "\n"), source: name + ".keylog")
        }
        let files = ["config-a", "ipv6"].map { RecordedCapture($0).capturePath }
        // Two jobs: the first two addresses seen both go to shard 1 (`ShardAssignment`).
        for outcome in try JobsComparison.expectOneJobsStream(files, AnalysisConfiguration(keyLog: keyLog), jobs: [2], name: "config-a + ipv6") {
            #expect(outcome.fallback == nil)
        }
        for outcome in try JobsComparison.expectOneJobsStream(files, AnalysisConfiguration(keyLog: keyLog), jobs: [3], name: "config-a + ipv6") {
            #expect(outcome.fallback?.reason.contains("accessory database of 1A:2B:3C:4D:5E:6F") == true)
            #expect(outcome.fallback?.description.hasPrefix("fell back to one job at packet #") == true)
        }
    }
}
