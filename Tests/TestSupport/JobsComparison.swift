import Capture
import HAPAnalysis
import HAPCore
import HAPEvents
import Reports
import Testing

/// A capture analysed in one job and in several (`--jobs`), compared as the NDJSON report's
/// lines: the sharded stream must be one job's, event for event.
public enum JobsComparison {
    /// The events as the NDJSON report writes them, one line each.
    public static func lines(_ events: [HAPEvent]) -> [String] {
        events.map { EventJSON.encode($0, clock: CaptureClock()) }
    }

    public static func oneJob(_ files: [String], _ configuration: AnalysisConfiguration) throws -> [HAPEvent] {
        var events: [HAPEvent] = []
        AnalysisPipeline(configuration: configuration, consumers: [EventSink { events.append($0) }]).run(try CaptureFileReader(files: files))
        return events
    }

    public static func jobs(
        _ count: Int, _ files: [String], _ configuration: AnalysisConfiguration, threads: Bool = false
    ) throws -> (events: [HAPEvent], outcome: JobsOutcome) {
        var events: [HAPEvent] = []
        let outcome = ShardedAnalysis(configuration: configuration, consumers: [EventSink { events.append($0) }], jobs: count, threads: threads)
            .run(try CaptureFileReader(files: files))
        return (events, outcome)
    }

    /// Fails with the lines that differ.
    public static func expectSameStream(_ sharded: [HAPEvent], _ single: [HAPEvent], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        ExpectedDecode.expect(lines(sharded).joined(separator: "\n"), equals: lines(single).joined(separator: "\n"), name: name, sourceLocation: sourceLocation)
    }

    /// Runs `files` in one job and in each of `counts` jobs, sequentially and on threads, and
    /// expects one job's stream every time; returns the outcomes, for their fallbacks.
    @discardableResult
    public static func expectOneJobsStream(
        _ files: [String], _ configuration: AnalysisConfiguration, jobs counts: [Int] = [2, 3], name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [JobsOutcome] {
        let single = try oneJob(files, configuration)
        var outcomes: [JobsOutcome] = []
        for count in counts {
            for threads in [false, true] {
                let (sharded, outcome) = try jobs(count, files, configuration, threads: threads)
                expectSameStream(sharded, single, "\(name) in \(count) jobs\(threads ? " on threads" : "")", sourceLocation: sourceLocation)
                outcomes.append(outcome)
            }
        }
        return outcomes
    }
}
