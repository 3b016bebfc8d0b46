import Foundation
import HAPCore
import HAPEvents
import Reports
import Testing
import TestSupport

/// docs/cli.md and docs/json.md cover what the program does.
@Suite("Documentation")
struct DocumentationTests {
    static func document(_ name: String) throws -> String {
        try String(contentsOf: RecordedCapture.packageDirectory.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    }

    static let eventTypes = [
        "input-opened", "problem", "advertisement", "mdns-query", "connection-opened", "http-message", "pairing-message",
        "pairing-exchange", "session-started", "session-problem", "accessory-database", "database-dump", "characteristic",
        "connection-closed", "input-ended",
    ]

    @Test("docs/cli.md has a section for every command and a row for every limit")
    func commandLineDocument() throws {
        let document = try Self.document("cli.md")
        let help = try HapscopeBinary.run(["--help"]).standardOutput
        let commands = help.split(separator: "\n").drop { !$0.hasPrefix("commands") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
        #expect(commands.contains("summary") && commands.contains("check"), "the command list was read from --help")
        for command in commands {
            #expect(document.contains("### `\(command)`"), "\(command)")
        }
        let limits = try HapscopeBinary.run(["help", "limits"]).standardOutput.split(separator: "\n").dropFirst()
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(limits == AnalysisLimit.all.map(\.name.rawValue), "help limits lists the registry, in order")
        for limit in limits {
            #expect(document.contains("| `\(limit)` |"), "\(limit)")
        }
    }

    @Test("docs/json.md describes every event type, and every event a capture yields has one of them")
    func jsonDocument() throws {
        let document = try Self.document("json.md")
        for type in Self.eventTypes {
            #expect(document.contains("### `\(type)`"), "\(type)")
        }
        let capture = try RecordedAnalysis("frame-faults")
        for event in capture.events {
            #expect(Self.eventTypes.contains(EventJSON.typeName(event.kind)))
        }
        #expect(document.contains(EventJSON.schema))
    }
}
