import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// `hapscope check` reporting what changed (issue 25): per record and per field, with counts, a
/// bound, ignored paths, JSON and JUnit, and `--update` saying what it changed.
@Suite struct CheckDifferencesTests {
    /// Copies of bundled captures, their key logs and (changed) expectations in a directory of
    /// their own, removed when the test ends.
    private final class Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-check-\(UUID())")

        init(_ names: [String] = ["bridge"], expectation change: ((_ name: String, inout [String]) -> Void)? = { _, _ in }) throws {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("expected"), withIntermediateDirectories: true)
            let captures = RecordedCapture.directory
            for name in names {
                for file in [URL(fileURLWithPath: RecordedCapture(name).capturePath).lastPathComponent, name + ".keylog"] {
                    try FileManager.default.copyItem(at: captures.appendingPathComponent(file), to: directory.appendingPathComponent(file))
                }
                guard let change else { continue }
                var lines = try String(contentsOf: captures.appendingPathComponent("expected/\(name).ndjson"), encoding: .utf8)
                    .split(separator: "\n").map(String.init)
                change(name, &lines)
                try lines.map { $0 + "\n" }.joined().write(to: expectation(name), atomically: true, encoding: .utf8)
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func capture(_ name: String = "bridge") -> String {
            directory.appendingPathComponent(URL(fileURLWithPath: RecordedCapture(name).capturePath).lastPathComponent).path
        }

        func expectation(_ name: String = "bridge") -> URL {
            directory.appendingPathComponent("expected/\(name).ndjson")
        }

        func check(_ arguments: [String] = [], _ names: [String] = ["bridge"]) throws -> HapscopeBinary.Result {
            try HapscopeBinary.run(["check"] + arguments + names.map(capture))
        }
    }

    /// The issue's scenario: in the expectation, one characteristic value inside the 5 kB
    /// accessory-database record (line 37) changed from true to false.
    private static func issueScenario(_ name: String, _ lines: inout [String]) {
        lines[36] = lines[36].replacingOccurrences(of: #""value":true"#, with: #""value":false"#, range: lines[36].range(of: #""value":true"#))
    }

    /// Every record's own time a second later, as a clock change would make it.
    private static func retimed(_ name: String, _ lines: inout [String]) {
        lines = lines.map { line in line.range(of: #","time":"#).map { line.replacingCharacters(in: $0, with: #","time":1"#) } ?? line }
    }

    @Test func theIssuesScenarioNamesTheRecordTheMemberAndTheAccessorysTerms() throws {
        let scratch = try Scratch(expectation: Self.issueScenario)
        let result = try scratch.check()
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            FAIL \(scratch.capture()): 1 difference from \(scratch.expectation().path) (expected → decoded)
              line 37: accessory-database #43, connection 2
                changed accessories[3].services[1].characteristics[0].value (4.9 On): false → true
              1 difference in 1 record: 1 changed; by record type: accessory-database 1

            """)
    }

    @Test func aRecordTheExpectationHasAndTheDecodeLacksIsRemovedAndTheRestAlign() throws {
        let scratch = try Scratch { _, lines in lines.insert(lines[39].replacingOccurrences(of: #""packet":47"#, with: #""packet":48"#), at: 40) }
        let result = try scratch.check()
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\n  line 41 removed: characteristic #48, connection 2, read 4.9 On: {"))
        #expect(result.standardOutput.contains("  1 difference in 1 record: 1 record removed;"))
    }

    @Test func aRecordOnlyTheDecodeHasIsAdded() throws {
        let scratch = try Scratch { _, lines in lines.remove(at: 5) }
        let result = try scratch.check()
        #expect(result.standardOutput.contains("\n  line 6 added: mdns-query #8: {"))
        #expect(result.standardOutput.contains("  1 difference in 1 record: 1 record added;"))
    }

    @Test func reorderedRecordsAreMoved() throws {
        let scratch = try Scratch { _, lines in lines.swapAt(39, 40) }
        let result = try scratch.check()
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(" moved: characteristic #47, connection 2, read "))
        #expect(result.standardOutput.contains("  1 difference in 1 record: 1 record moved;"))
    }

    @Test func maxDifferencesBoundsWhatIsShownButNotWhatIsCounted() throws {
        let scratch = try Scratch(expectation: Self.retimed)
        let total = "88 differences in 88 records: 88 changed"
        let bounded = try scratch.check(["--max-differences", "3"])
        #expect(bounded.status == 1)
        #expect(bounded.standardOutput.components(separatedBy: "    changed time: ").count - 1 == 3)
        #expect(bounded.standardOutput.contains("  … 85 more differences not shown\n"))
        #expect(bounded.standardOutput.contains(total))
        let byDefault = try scratch.check()
        #expect(byDefault.standardOutput.components(separatedBy: "    changed time: ").count - 1 == 20)
        let everything = try scratch.check(["--max-differences", "all"])
        #expect(everything.standardOutput.components(separatedBy: "    changed time: ").count - 1 == 88)
        #expect(!everything.standardOutput.contains("not shown"))
        let countsOnly = try scratch.check(["--max-differences", "0"])
        #expect(countsOnly.standardOutput.split(separator: "\n").count == 3)
        #expect(try scratch.check(["--max-differences", "-1"]).status == 2)
    }

    @Test func ignoredPathsMakeAnExpectedVariationPass() throws {
        let scratch = try Scratch { name, lines in
            Self.retimed(name, &lines)
            Self.issueScenario(name, &lines)
        }
        let ignoringTime = try scratch.check(["--ignore", "time"])
        #expect(ignoringTime.status == 1)
        #expect(ignoringTime.standardOutput.contains("1 difference in 1 record: 1 changed"))
        let ignoringBoth = try scratch.check(["--ignore", "time", "--ignore", "accessory-database:accessories[*].services[*].characteristics[*].value"])
        #expect(ignoringBoth.status == 0, "\(ignoringBoth.standardOutput)")
        #expect(ignoringBoth.standardOutput == "ok   \(scratch.capture()) (91 records, equal but for what is ignored)\n")
        #expect(try scratch.check(["--ignore", "**.time", "--ignore", "**.value"]).status == 0)
        let wholeRecords = try Scratch { _, lines in lines.removeAll { $0.hasPrefix(#"{"type":"mdns-query""#) } }
        #expect(try wholeRecords.check(["--ignore", "mdns-query:**"]).status == 0)
    }

    @Test func aMalformedPatternIsAUsageError() throws {
        let scratch = try Scratch()
        let result = try scratch.check(["--ignore", "accessories[x]"])
        #expect(result.status == 2)
        #expect(result.errorLines == ["hapscope: --ignore 'accessories[x]' at character 13: brackets hold an index, * or a quoted key"])
    }

    @Test func jsonCarriesTheSameDifferencesAndCounts() throws {
        let scratch = try Scratch(expectation: Self.issueScenario)
        let result = try scratch.check(["--format", "json"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: result.outputBytes) as? [String: Any])
        #expect(document["command"] as? String == "check")
        #expect(document["status"] as? Int == 1)
        let capture = try #require((document["captures"] as? [[String: Any]])?.first)
        #expect(capture["outcome"] as? String == "differs")
        #expect(capture["records"] as? Int == 91)
        #expect((capture["differenceCounts"] as? [String: Any])?["byKind"] as? [String: Int] == ["changed": 1])
        let difference = try #require((capture["differences"] as? [[String: Any]])?.first)
        #expect(difference["path"] as? String == "accessories[3].services[1].characteristics[0].value")
        #expect(difference["old"] as? Bool == false)
        #expect(difference["new"] as? Bool == true)
        #expect((difference["record"] as? [String: Any])?["packet"] as? Int == 43)
        #expect((difference["accessory"] as? [String: Any])?["text"] as? String == "4.9 On")
    }

    @Test func junitHasACasePerCaptureWithTheDifferencesInItsFailure() throws {
        let scratch = try Scratch(["bridge", "ipv6"]) { name, lines in
            if name == "bridge" { Self.issueScenario(name, &lines) }
        }
        let result = try scratch.check(["--format", "junit"], ["bridge", "ipv6"])
        #expect(result.status == 1)
        let xml = result.standardOutput
        #expect(XMLParser(data: result.outputBytes).parse(), "well-formed XML")
        #expect(xml.contains(#"<testsuite name="hapscope check" tests="2" failures="1" errors="0" skipped="0">"#))
        #expect(xml.contains("<testcase name=\"\(scratch.capture("ipv6"))\" classname=\"hapscope.check\"/>"))
        #expect(xml.contains(#"type="differences">expected → decoded"#))
        #expect(xml.contains("changed accessories[3].services[1].characteristics[0].value (4.9 On): false → true"))
    }

    @Test func updateSaysWhatItChangedAndThenThatNothingDid() throws {
        let scratch = try Scratch(expectation: Self.issueScenario)
        let updated = try scratch.check(["--update"])
        #expect(updated.status == 0)
        #expect(updated.standardOutput.hasPrefix("updated \(scratch.expectation().path): 1 difference from the previous one (previous → new)\n"))
        #expect(updated.standardOutput.contains("    changed accessories[3].services[1].characteristics[0].value (4.9 On): false → true\n"))
        let again = try scratch.check(["--update"])
        #expect(again.standardOutput == "unchanged \(scratch.expectation().path) (91 records)\n")
        #expect(try scratch.check().status == 0)
    }

    @Test func updateRefusesADecodeWithProblemsUnlessForced() throws {
        let scratch = try Scratch(["frame-faults"], expectation: nil)
        let refused = try scratch.check(["--update"], ["frame-faults"])
        #expect(refused.status == 2)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.errorLines.count == 1)
        #expect(refused.standardError.contains("did not decode cleanly: 5 session-problem records (the first: session-problem #"))
        #expect(refused.standardError.contains("--force"))
        #expect(!FileManager.default.fileExists(atPath: scratch.expectation("frame-faults").path))
        let forced = try scratch.check(["--update", "--force"], ["frame-faults"])
        #expect(forced.status == 0)
        #expect(forced.standardOutput == "created \(scratch.expectation("frame-faults").path) (123 records)\n")
        #expect(try scratch.check([], ["frame-faults"]).status == 0)
        #expect(try scratch.check(["--force"], ["frame-faults"]).status == 2, "--force goes with --update")
    }

    @Test func aCaptureThatCannotBeReadDoesNotStopTheOthers() throws {
        let scratch = try Scratch()
        let result = try HapscopeBinary.run(["check", scratch.directory.appendingPathComponent("none.pcap").path, scratch.capture()])
        #expect(result.status == 2)
        #expect(result.standardOutput.hasPrefix("ok   \(scratch.capture())"))
        #expect(result.standardError.contains("none.pcap: no such file"))
    }
}
