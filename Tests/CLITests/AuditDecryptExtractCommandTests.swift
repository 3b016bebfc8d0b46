import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// `audit`, `decrypt`, `extract` and `--format html` from the command line.
@Suite(.serialized) struct AuditDecryptExtractCommandTests {
    private static let badSRP = ["captures/bad-srp.pcap", "--keylog", "captures/bad-srp.keylog"]
    private static let bridge = ["captures/bridge.pcap", "--keylog", "captures/bridge.keylog"]

    @Test func auditExitsOneWhenAFindingReachesFailOnAndZeroOtherwise() throws {
        let findings = try HapscopeBinary.run(["audit"] + Self.badSRP)
        #expect(findings.status == 1)
        #expect(findings.standardOutput.contains("HIGH    pairing/srp-malformed"))
        #expect(findings.standardOutput.contains("#26"))
        let clean = try HapscopeBinary.run(["audit"] + Self.bridge)
        #expect(clean.status == 0)
        #expect(clean.standardOutput.contains("findings: none"))
        // bad-srp has a high finding; bad-json only a medium one, which --fail-on high lets pass.
        #expect(try HapscopeBinary.run(["audit", "--fail-on", "high"] + Self.badSRP).status == 1)
        let mediumOnly = try HapscopeBinary.run(["audit", "--fail-on", "high", "captures/bad-json.pcap", "--keylog", "captures/bad-json.keylog"])
        #expect(mediumOnly.status == 0, "\(mediumOnly.standardOutput)")
    }

    @Test func auditJSONListsEveryFindingWithItsEvidence() throws {
        let result = try HapscopeBinary.run(["audit", "--format", "json"] + Self.badSRP)
        let root = try JSONDocument(bytes: Array(result.outputBytes)).root
        let rules = root["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }
        #expect(rules == ["pairing/srp-malformed", "pairing/srp-proof-mismatch"])
        #expect(root["findings"]?.arrayValue?.first?["evidence"]?.arrayValue?.count == 3)
    }

    @Test func htmlIsOfferedBySummaryAndAuditOnly() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: report) }
        #expect(try HapscopeBinary.run(["audit", "--format", "html", "-o", report.path] + Self.badSRP).status == 1)
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("pairing/srp-malformed"))
        let refused = try HapscopeBinary.run(["http", "--format", "html"] + Self.bridge)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("hapscope summary --format html"))
    }

    @Test func decryptNeedsADestinationAndSaysWhatItOpened() throws {
        let missing = try HapscopeBinary.run(["decrypt"] + Self.bridge)
        #expect(missing.status == 2)
        #expect(missing.standardError == "hapscope: decrypt needs -w FILE: where to write the decrypted capture\n")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(UUID()).pcap")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try HapscopeBinary.run(["decrypt", "-w", output.path] + Self.bridge)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("1 of 1 encrypted sessions decrypted"))
        #expect(try Data(contentsOf: output).count > 10_000)
        let withoutKeys = try HapscopeBinary.run(["decrypt", "-w", output.path, "captures/bridge.pcap", "--no-keylog"])
        #expect(withoutKeys.standardOutput.contains("left encrypted: no key-log entry for this pair-verify"))
    }

    @Test func extractNeedsADirectoryAndWritesTheBodies() throws {
        #expect(try HapscopeBinary.run(["extract"] + Self.bridge).status == 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-extract-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HapscopeBinary.run(["extract", "-d", directory.path] + Self.bridge)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("wrote 25 bodies and manifest.json to "))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path))
    }
}
