import Foundation
import HAPJSON
import Testing
import TestSupport

/// `--accessories`: captures that hold no `/accessories` typed by a database from elsewhere, which
/// the reports name. mid-session.pcap (tcpdump started after pair-verify and `GET /accessories`)
/// and bridge.pcap (the whole session) are recordings of the same HAP-python bridge.
@Suite(.serialized) struct AccessoriesOptionTests {
    private static let midSession = "captures/mid-session.pcap"

    /// The summary's activity rows, `aid.iid  name  counts`.
    private func activity(_ output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("activity") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    @Test func anEarlierCaptureNamesTheCharacteristicsAndTheSummarySaysWhereItsDatabaseCameFrom() throws {
        let alone = try HapscopeBinary.run(["summary", "-q", Self.midSession])
        #expect(alone.status == 0)
        #expect(activity(alone.standardOutput).contains { $0.hasPrefix("  3.9   ?") }, "\(alone.standardOutput)")
        let typed = try HapscopeBinary.run(["summary", "-q", Self.midSession, "--accessories", "captures/bridge.pcap"])
        #expect(typed.status == 0, "\(typed.standardError)")
        let rows = activity(typed.standardOutput)
        #expect(rows.contains { $0.contains("3.9") && $0.contains("Current Temperature") && $0.contains("21.5 °C") }, "\(rows)")
        #expect(rows.contains { $0.contains("5.10") && $0.contains("Lock Target State") && $0.contains("0 (UNSECURED)") }, "\(rows)")
        #expect(!rows.contains { $0.contains("  ?  ") }, "\(rows)")
        #expect(typed.standardOutput.contains("hapscope Bridge: no /accessories in this capture; typed by the database given with "
            + "--accessories: bridge.pcap, accessory 1A:2B:3C:4D:5E:6F, /accessories in packet #43"))
        // The connection already running at the first packet and the one verified later are one accessory.
        #expect(typed.standardOutput.contains("accessories 1\n"), "\(typed.standardOutput)")
    }

    @Test func aDumpTypesEveryConnectionAndTheEventSaysSo() throws {
        let scratch = try ScratchDirectory()
        let extracted = try HapscopeBinary.run(["extract", "-q", "captures/bridge.pcap", "-d", scratch.path])
        #expect(extracted.status == 0, "\(extracted.standardError)")
        let body = try #require(try FileManager.default.contentsOfDirectory(atPath: scratch.path).first { $0.hasSuffix("-accessories.json") })
        let events = try HapscopeBinary.run(["events", "-q", "--format", "ndjson", Self.midSession, "--accessories", scratch.file(body)])
        #expect(events.status == 0, "\(events.standardError)")
        let borrowed = try events.standardOutput.split(separator: "\n")
            .map { try JSONDocument(bytes: Array($0.utf8)).root }
            .filter { $0["type"]?.stringValue == "accessory-database" }
        #expect(borrowed.count == 2, "announced once on each of the capture's two connections")
        #expect(borrowed.allSatisfy { $0["source"]?.stringValue == "supplied" && $0["sourceName"]?.stringValue == body })
        let timeline = try HapscopeBinary.run(["timeline", "-q", Self.midSession, "--accessories", scratch.file(body)])
        #expect(timeline.standardOutput.contains("Lock Current State"))
    }

    @Test func aDatabaseReadInOneFileServesTheLaterFilesOfTheRun() throws {
        let events = try HapscopeBinary.run(["events", "-q", "--format", "ndjson", "captures/bridge.pcap", Self.midSession])
        #expect(events.status == 0, "\(events.standardError)")
        let databases = try events.standardOutput.split(separator: "\n")
            .map { try JSONDocument(bytes: Array($0.utf8)).root }
            .filter { $0["type"]?.stringValue == "accessory-database" }
        #expect(databases.first?["source"] == nil, "bridge.pcap's own response")
        #expect(databases.dropFirst().count == 2)
        #expect(databases.dropFirst().allSatisfy { $0["source"]?.stringValue == "earlier-input" && $0["sourceName"]?.stringValue == "bridge.pcap" })
        let tree = try HapscopeBinary.run(["tree", "-q", Self.midSession, "--accessories", "captures/bridge.pcap"])
        #expect(tree.standardOutput.contains("no /accessories in this capture; the database given with --accessories: bridge.pcap"))
    }

    @Test func theAuditJudgesABorrowedDatabaseWhereItWasReadNotAgain() throws {
        let dump = "Tests/HAPJSONTests/Fixtures/real-databases/ryse_smart_bridge.json"
        #expect(try HapscopeBinary.run(["audit", dump]).standardOutput.contains("database/missing-accessory-information"))
        let audit = try HapscopeBinary.run(["audit", "-q", Self.midSession, "--accessories", dump])
        #expect(!audit.standardOutput.contains("database/missing-accessory-information"), "\(audit.standardOutput)")
    }

    @Test func twoDumpsAreRefusedAndAnUnreadableCaptureIsNamed() throws {
        let scratch = try ScratchDirectory()
        let one = try scratch.write(#"{"accessories":[]}"#, to: "one.json")
        let two = try scratch.write(#"{"accessories":[]}"#, to: "two.json")
        let both = try HapscopeBinary.run(["summary", Self.midSession, "--accessories", one, "--accessories", two])
        #expect(both.status == 2)
        #expect(both.standardError.contains("are dumps, which name no accessory"), "\(both.standardError)")
        let plain = try scratch.write("not a capture", to: "plain.pcap")
        let unreadable = try HapscopeBinary.run(["summary", Self.midSession, "--accessories", plain])
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError.contains("--accessories") && unreadable.standardError.contains("plain.pcap"), "\(unreadable.standardError)")
    }
}
