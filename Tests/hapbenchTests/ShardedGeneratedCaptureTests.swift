import Foundation
import HAPCore
import Testing
import TestSupport
@testable import hapbench

/// `--jobs N` on the generated captures, whose accessories each have an address of their own, so
/// that connections really are spread over the shards: one job's stream every time.
@Suite("Several jobs on the generated captures")
struct ShardedGeneratedCaptureTests {
    static func expectOneJobsStream(_ name: String, expectingNoFallback: Bool = true, _ generate: (String) throws -> Void) throws {
        let directory = try GeneratedCaptureChecks.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/\(name).pcap"
        try generate(path)
        let configuration = AnalysisConfiguration(keyLog: try CaptureAnalysis.keyLog(forCapture: path))
        for outcome in try JobsComparison.expectOneJobsStream([path], configuration, name: name) where expectingNoFallback {
            #expect(outcome.fallback == nil, "\(name): \(outcome.fallback!)")
        }
    }

    @Test("a day of 12 bridges, pair-verifies, pair-setups, reads, writes and events")
    func day() throws {
        try Self.expectOneJobsStream("day") { path in
            var configuration = CaptureGenerator.Configuration(targetByteCount: 600_000)
            configuration.accessoryCount = 12
            configuration.concurrentSessions = 6
            configuration.exchangesPerSession = 20...40
            configuration.pairSetupEvery = 4
            _ = try CaptureGenerator(configuration: configuration).generate(to: path)
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
