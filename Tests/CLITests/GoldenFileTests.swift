import Foundation
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The text and JSON output of the main commands on recorded captures, compared with the files
/// in `captures/expected/`. After an intended change of output, regenerate them with
///
///     HAPSCOPE_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests
///
/// and review the difference (`git diff captures/expected`) before committing it.
@Suite("Golden files")
struct GoldenFileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let arguments: [String]
        var testDescription: String { file }

        /// `command` on `capture` with its key log, in `format`; `variant` names the extra options.
        init(_ capture: String, _ command: String, _ format: String = "text", variant: String? = nil, extra: [String] = []) {
            let suffix = format == "text" ? "txt" : format
            file = "\(capture).\(command)\(variant.map { "." + $0 } ?? "").\(suffix)"
            arguments = [command, RecordedCapture(capture).capturePath, "--keylog", RecordedCapture(capture).keyLogPath, "--format", format] + extra
        }

        init(file: String, arguments: [String]) {
            self.file = file
            self.arguments = arguments
        }
    }

    static let cases: [Case] = [
        Case("bridge", "summary"), Case("bridge", "summary", "json"), Case("bridge", "discover"), Case("bridge", "pairing"),
        Case("bridge", "tree"), Case("bridge", "tree", "json"), Case("bridge", "timeline"), Case("bridge", "http"),
        Case("bridge", "http", variant: "verbose", extra: ["--verbose"]), Case("bridge", "stats"), Case("bridge", "events"),
        Case("bridge", "http", "ndjson"),
        Case("wrong-code", "summary"), Case("wrong-code", "pairing"), Case("pairings", "pairing"),
        Case("bad-discovery", "discover"), Case("bad-database", "tree"), Case("lossy-link", "stats"),
        Case("frame-faults", "summary"), Case("multi-connection", "timeline", variant: "temperature", extra: ["--char", "temperature"]),
        // TLV8 characteristic values decoded field by field, SRTP keys withheld (docs/cli.md, `tree`).
        Case("camera", "timeline"), Case("camera", "tree"), Case("camera", "http", variant: "verbose", extra: ["--verbose"]),
        Case(file: "tlv.pair-setup-m2-truncated.txt", arguments: ["tlv", "06 01 02 02 10 a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5 03 ff 1111", "--as", "pair-setup"]),
        Case(file: "tlv.pair-setup-m2-truncated.json", arguments: ["tlv", "06 01 02 02 10 a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5 03 ff 1111", "--as", "pair-setup", "--format", "json"]),
    ]

    static let directory = RecordedCapture.directory.appendingPathComponent("expected")

    @Test("the output matches its golden file", arguments: cases)
    func matchesGoldenFile(golden: Case) throws {
        let result = try HapscopeBinary.run(golden.arguments)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let url = Self.directory.appendingPathComponent(golden.file)
        if ProcessInfo.processInfo.environment["HAPSCOPE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try result.outputBytes.write(to: url)
            return
        }
        let expected = try #require(try? Data(contentsOf: url),
                                    "no \(golden.file): run HAPSCOPE_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests")
        let decoded = String(decoding: result.outputBytes, as: UTF8.self)
        let wanted = String(decoding: expected, as: UTF8.self)
        if golden.file.hasSuffix(".ndjson") {
            ExpectedDecode.expect(decoded, equals: wanted, name: "captures/expected/\(golden.file)")
        } else if let difference = ExpectedOutput.difference(expected: wanted, actual: decoded) {
            Issue.record("hapscope \(golden.arguments.joined(separator: " ")) differs from captures/expected/\(golden.file):\n\(difference)")
        }
    }
}
