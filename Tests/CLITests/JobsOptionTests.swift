import Foundation
import Testing
import TestSupport

/// `--jobs N`: the same bytes out whatever N; a fallback to one job is said on standard error.
@Suite(.serialized) struct JobsOptionTests {
    static func capture(_ name: String) -> String { "captures/\(name).pcap" }

    @Test("every report of a run is byte for byte the same in 1, 2 and 3 jobs", arguments: ["events", "summary", "timeline", "tree", "audit"])
    func sameOutput(_ command: String) throws {
        let files = ["config-a", "config-b", "multi-connection"].map(Self.capture)
        let format = command == "timeline" ? "text" : "json"
        let one = try HapscopeBinary.run([command, "--format", format, "--jobs", "1"] + files)
        for jobs in ["2", "3"] {
            let many = try HapscopeBinary.run([command, "--format", format, "--jobs", jobs] + files)
            #expect(many.status == one.status)
            #expect(many.outputBytes == one.outputBytes, "\(command) --jobs \(jobs)")
            #expect(many.standardError == one.standardError)
        }
    }

    @Test("a fact crossing shards falls back to one job, says so on standard error, and the output is one job's")
    func fallbackIsSaid() throws {
        let files = ["config-a", "ipv6"].map(Self.capture)
        let one = try HapscopeBinary.run(["events", "--format", "ndjson", "--jobs", "1"] + files)
        let many = try HapscopeBinary.run(["events", "--format", "ndjson", "--jobs", "3"] + files)
        #expect(many.outputBytes == one.outputBytes)
        #expect(many.errorLines.contains { $0.hasPrefix("hapscope: --jobs: fell back to one job at packet #") && $0.contains("1A:2B:3C:4D:5E:6F") },
                "\(many.standardError)")
        let quiet = try HapscopeBinary.run(["events", "--format", "ndjson", "--jobs", "3", "--quiet"] + files)
        #expect(quiet.standardError.isEmpty)
    }

    @Test("--jobs takes a number from 1 on", arguments: ["0", "many", "-2"])
    func refused(_ value: String) throws {
        let result = try HapscopeBinary.run(["events", "--jobs", value, Self.capture("bridge")])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--jobs takes a number of jobs from 1"), "\(result.standardError)")
    }
}
