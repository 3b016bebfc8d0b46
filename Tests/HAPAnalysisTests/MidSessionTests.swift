import Capture
import Foundation
@testable import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport

@Suite struct MidSessionTests {
    /// bridge.pcap without the packets from the first TCP handshake to just after pair-verify:
    /// what a capture started in the middle of an encrypted session looks like.
    private func capturedMidSession() throws -> String {
        let input = RecordedCapture.directory.appendingPathComponent("bridge.pcap").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-midsession-\(UUID()).pcap").path
        let reader = try CaptureFileReader(files: [input])
        let writer = try PcapWriter(file: output, linkType: try #require(reader.currentLinkType))
        while let packet = try reader.next() {
            // Packets 12–40 hold both handshakes, pair-setup, pair-verify and the first frames.
            if packet.info.number < 12 || packet.info.number > 40 {
                writer.write(packet.bytes, timestamp: packet.info.timestamp, originalLength: packet.info.originalLength)
            }
        }
        try writer.close()
        return output
    }

    @Test func aSessionAlreadyEncryptedIsRecognisedByItsAdvertisedEndpointAndCountedNotMisparsed() throws {
        let path = try capturedMidSession()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var events: [HAPEvent] = []
        AnalysisPipeline(configuration: AnalysisConfiguration(), consumers: [EventSink { events.append($0) }])
            .run(try CaptureFileReader(files: [path]))
        let starts = events.compactMap { event -> SessionStartEvent? in
            if case .sessionStarted(let start) = event.kind { return start }
            return nil
        }
        #expect(starts.map(\.trigger) == [.beforeCapture])
        #expect(starts.first?.connection.accessory.port == 51826)
        let problems = events.compactMap { event -> CaptureProblem? in
            if case .problem(let problem) = event.kind { return problem }
            return nil
        }
        #expect(problems.filter { $0.kind == .undecodableHTTP } == [])
        let summary = events.compactMap { event -> ConnectionSummary? in
            if case .connectionClosed(let summary) = event.kind { return summary }
            return nil
        }.first
        #expect(summary?.encrypted == true)
        #expect((summary?.frames[.accessoryToController]?.ciphertextBytes ?? 0) > 1000)
    }
}
