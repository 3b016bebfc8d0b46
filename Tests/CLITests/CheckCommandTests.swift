import Foundation
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// `hapscope check`: the regression test users run on their own recorded captures.
@Suite(.serialized) struct CheckCommandTests {
    private static let allCaptures = try! FileManager.default.contentsOfDirectory(atPath: RecordedCapture.packageDirectory.appendingPathComponent("captures").path)
        .filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted().map { "captures/" + $0 }

    @Test func everyRecordedCaptureDecodesExactlyAsExpected() throws {
        // Every scenario of the corpus has its capture, whatever their number.
        #expect(Self.allCaptures.count == RecordedCapture.all.count)
        let result = try HapscopeBinary.run(["check"] + Self.allCaptures)
        #expect(result.status == 0, "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == Self.allCaptures.count && lines.allSatisfy { $0.hasPrefix("ok   ") })
    }

    /// A copy of bridge.pcap and its key log in a directory of its own, with an expectation.
    private func scratchCopy(expectation: (String) -> String?) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("expected"), withIntermediateDirectories: true)
        let captures = RecordedCapture.packageDirectory.appendingPathComponent("captures")
        for file in ["bridge.pcap", "bridge.keylog"] {
            try FileManager.default.copyItem(at: captures.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        let expected = try String(contentsOf: captures.appendingPathComponent("expected/bridge.ndjson"), encoding: .utf8)
        if let changed = expectation(expected) {
            try changed.write(to: directory.appendingPathComponent("expected/bridge.ndjson"), atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test func aChangedDecodeFailsWithTheDifferingMemberNamedInItsRecord() throws {
        let directory = try scratchCopy { expected in
            var lines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[9] = lines[9].replacingOccurrences(of: "\"packet\":", with: "\"packet\":1000")
            return lines.joined(separator: "\n")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HapscopeBinary.run(["check", directory.appendingPathComponent("bridge.pcap").path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("FAIL "))
        #expect(result.standardOutput.contains("  line 10: pairing-message #100015, connection 1\n    changed packet: 100015 → 15\n"))
        #expect(result.standardOutput.contains("  1 difference in 1 record: 1 changed"))
    }

    @Test func updateWritesTheExpectationThatTheNextCheckAccepts() throws {
        let directory = try scratchCopy { _ in nil }
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("bridge.pcap").path
        let missing = try HapscopeBinary.run(["check", capture])
        #expect(missing.status == 1)
        #expect(missing.standardOutput.contains("no expected decode at"))
        #expect(try HapscopeBinary.run(["check", "--update", capture]).status == 0)
        let again = try HapscopeBinary.run(["check", capture])
        #expect(again.status == 0, "\(again.standardOutput)")
        // The key log beside the capture was used: the expectation holds the decrypted requests.
        let written = try String(contentsOf: directory.appendingPathComponent("expected/bridge.ndjson"), encoding: .utf8)
        #expect(written.contains("GET /accessories"))
    }
}
