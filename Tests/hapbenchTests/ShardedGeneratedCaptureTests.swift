import Foundation
import HAPAnalysis
import HAPCore
import Testing
import TestSupport
@testable import hapbench

/// `--jobs N` on the generated captures, whose accessories each have an address of their own, so
/// that connections really are spread over the shards: one job's stream every time.
@Suite("Several jobs on the generated captures")
struct ShardedGeneratedCaptureTests {
    /// Generates a capture, analyses it in one job and in 2 and 3 (in turn and on threads), and
    /// returns the outcomes; none may fall back unless `keepingKeyLogLine` leaves facts out of the
    /// key log.
    @discardableResult
    static func expectOneJobsStream(
        _ name: String, keepingKeyLogLine keep: ((Substring) -> Bool)? = nil, _ generate: (String) throws -> Void
    ) throws -> [JobsOutcome] {
        let directory = try GeneratedCaptureChecks.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/\(name).pcap"
        try generate(path)
        var keyLog = try CaptureAnalysis.keyLog(forCapture: path)
        if let keep {
            let lines = try readText(CaptureGenerator.keyLogPath(forCapture: path)).split(separator: "\n").filter(keep)
            keyLog = try KeyLog(parsing: lines.joined(separator: "\n"), source: name + ".keylog")
        }
        let outcomes = try JobsComparison.expectOneJobsStream([path], AnalysisConfiguration(keyLog: keyLog), name: name)
        for outcome in outcomes where keep == nil {
            #expect(outcome.fallback == nil, "\(name): \(outcome.fallback!)")
        }
        return outcomes
    }

    static func day(_ path: String) throws {
        var configuration = CaptureGenerator.Configuration(targetByteCount: 600_000)
        configuration.accessoryCount = 12
        configuration.concurrentSessions = 6
        configuration.exchangesPerSession = 20...40
        configuration.pairSetupEvery = 4
        _ = try CaptureGenerator(configuration: configuration).generate(to: path)
    }

    @Test("a day of 12 bridges, pair-verifies, pair-setups, reads, writes and events")
    func day() throws {
        try Self.expectOneJobsStream("day", Self.day)
    }

    @Test("without the key log's long-term keys, a controller's key learned by a pair-setup at one bridge and used by its pair-verify at another crosses shards: the run falls back, the stream is one job's")
    func controllerKeyAcrossAccessories() throws {
        let outcomes = try Self.expectOneJobsStream("day-without-ltpks", keepingKeyLogLine: { !$0.hasPrefix("CONTROLLER_LTPK") && !$0.hasPrefix("ACCESSORY_LTPK") }, Self.day)
        for outcome in outcomes {
            #expect(outcome.fallback?.reason.contains("controller long-term key") == true, "\(outcome.fallback?.description ?? "no fallback")")
        }
    }

    @Test("a hub's sessions begun before the capture, joined from the key log (--home)")
    func home() throws {
        try Self.expectOneJobsStream("home") { path in
            _ = try CaptureGenerator(configuration: .home(targetByteCount: 400_000)).generate(to: path)
        }
    }

    @Test("the adversarial capture, bounded by the connection limit (--adversarial)")
    func adversarial() throws {
        try Self.expectOneJobsStream("adversarial") { path in
            var configuration = AdversarialCaptureGenerator.Configuration(targetByteCount: 300_000)
            (configuration.endlessBodyConnections, configuration.endlessHeaderConnections, configuration.outOfOrderConnections) = (3, 3, 3)
            _ = try AdversarialCaptureGenerator(configuration: configuration).generate(to: path)
        }
    }

    @Test("HAP over Bluetooth LE and over CoAP, which stay on the reader")
    func otherTransports() throws {
        try Self.expectOneJobsStream("ble") { path in _ = try BLECaptureGenerator(targetByteCount: 200_000).generate(to: path) }
        try Self.expectOneJobsStream("coap") { path in _ = try CoAPCaptureGenerator(targetByteCount: 200_000).generate(to: path) }
    }
}
