import Foundation
import Testing
@testable import hapbench

/// What the generator tests share: a scratch folder per capture, the analysis of a generated
/// capture with its key log, and the check that generation is deterministic.
enum GeneratedCaptureChecks {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "hapbench-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Generates a capture with `generate` (given its path) and analyses it with the key log
    /// written beside it.
    static func generateAndAnalyse<Summary>(_ generate: (String) throws -> Summary) throws -> (Summary, EventTally) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/generated.pcap"
        let summary = try generate(path)
        return (summary, try CaptureAnalysis.run(path, keyLog: CaptureAnalysis.keyLog(forCapture: path)))
    }

    /// The analysis read every packet, started `sessions` sessions, opened each and read a
    /// database on each, found as many PDUs and characteristic activities as were generated, and
    /// reported no problem.
    static func expectDecodedFully(
        _ tally: EventTally, packets: Int, sessions: Int, pdus: (found: Int, generated: Int), activities: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(tally.firstProblems.isEmpty, "\(tally.firstProblems)", sourceLocation: sourceLocation)
        #expect(tally.problemCount == 0, sourceLocation: sourceLocation)
        #expect(tally.packets == packets, sourceLocation: sourceLocation)
        #expect(tally.sessions == sessions, sourceLocation: sourceLocation)
        #expect(tally.decryptedSessions == sessions, sourceLocation: sourceLocation)
        #expect(tally.databases == sessions, sourceLocation: sourceLocation)
        #expect(pdus.found == pdus.generated, sourceLocation: sourceLocation)
        #expect(tally.characteristicEvents == activities, sourceLocation: sourceLocation)
    }

    /// `generate(path, seedOffset)` twice with offset 0 gives the same capture and key log, byte
    /// for byte; offset 1 another capture.
    static func expectDeterministic(sourceLocation: SourceLocation = #_sourceLocation, _ generate: (String, UInt64) throws -> Void) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, offset) in [("a", UInt64(0)), ("b", 0), ("c", 1)] { try generate("\(directory)/\(name).pcap", offset) }
        #expect(FileManager.default.contentsEqual(atPath: directory + "/a.pcap", andPath: directory + "/b.pcap"), sourceLocation: sourceLocation)
        #expect(try readText(directory + "/a.keylog") == readText(directory + "/b.keylog"), sourceLocation: sourceLocation)
        #expect(!FileManager.default.contentsEqual(atPath: directory + "/a.pcap", andPath: directory + "/c.pcap"), sourceLocation: sourceLocation)
    }
}
