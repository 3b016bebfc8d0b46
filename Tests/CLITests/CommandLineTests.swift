import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// The `hapscope` executable as a user meets it: commands, options, errors and exit statuses
/// (docs/cli.md).
@Suite("Command line")
struct CommandLineTests {
    static let bridge = "captures/bridge.pcap"
    static let bridgeKeys = "captures/bridge.keylog"

    static func temporaryFile(_ name: String, _ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    /// An error is one line on standard error with the status the documentation gives, and no report.
    static func expectError(_ arguments: [String], status: Int32 = 2, saying text: String, environment: [String: String] = [:]) throws {
        let result = try HapscopeBinary.run(arguments, environment: environment)
        #expect(result.status == status, "\(arguments)")
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("hapscope: "))
        #expect(result.standardError.contains(text), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("with no command the capture is summarised")
    func defaultCommand() throws {
        let result = try HapscopeBinary.run([Self.bridge, "--keylog", Self.bridgeKeys])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("input         bridge.pcap"))
        #expect(result.standardError.isEmpty)
    }

    @Test("-r is the same as naming the capture, and - reads standard input")
    func inputs() throws {
        let named = try HapscopeBinary.run(["summary", Self.bridge, "--no-keylog"])
        let read = try HapscopeBinary.run(["summary", "-r", Self.bridge, "--no-keylog"])
        let piped = try HapscopeBinary.run(["summary", "-"], input: try Data(contentsOf: RecordedCapture.directory.appendingPathComponent("bridge.pcap")))
        #expect(read.standardOutput == named.standardOutput)
        #expect(piped.standardOutput == named.standardOutput.replacingOccurrences(of: "bridge.pcap", with: "-"))
    }

    @Test("the key log beside a capture is read, and standard error says so; --no-keylog reads none")
    func keyLogBesideTheCapture() throws {
        let beside = try HapscopeBinary.run(["summary", Self.bridge])
        #expect(beside.status == 0)
        #expect(beside.errorLines == ["hapscope: reading the key log captures/bridge.keylog found beside captures/bridge.pcap (--no-keylog: not)"])
        #expect(beside.standardOutput == (try HapscopeBinary.run(["summary", Self.bridge, "--keylog", Self.bridgeKeys])).standardOutput)
        let quiet = try HapscopeBinary.run(["summary", Self.bridge, "-q"])
        #expect(quiet.standardError.isEmpty && quiet.standardOutput == beside.standardOutput)
        let none = try HapscopeBinary.run(["summary", Self.bridge, "--no-keylog"])
        #expect(none.standardError.isEmpty)
        #expect(none.standardOutput.contains("not decrypted"))
    }

    @Test("HAPKEYLOGFILE supplies key logs, colon-separated, like --keylog")
    func keyLogVariable() throws {
        let withOption = try HapscopeBinary.run(["summary", Self.bridge, "--keylog", Self.bridgeKeys])
        let withVariable = try HapscopeBinary.run(["summary", Self.bridge], environment: ["HAPKEYLOGFILE": Self.bridgeKeys])
        let without = try HapscopeBinary.run(["summary", Self.bridge, "--no-keylog"])
        #expect(withVariable.standardOutput == withOption.standardOutput)
        #expect(without.standardOutput.contains("not decrypted"))
        #expect(withVariable.standardOutput.contains("decrypted both directions"))
        let twoFiles = try HapscopeBinary.run(["summary", Self.bridge], environment: ["HAPKEYLOGFILE": Self.bridgeKeys + ":" + "captures/wrong-code.keylog"])
        #expect(twoFiles.status == 0)
        #expect(twoFiles.standardOutput.contains("decrypted both directions"))
    }

    @Test("-o writes the report to a file and nothing to standard output")
    func outputFile() throws {
        let file = try Self.temporaryFile("report.json", Data())
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try HapscopeBinary.run(["stats", Self.bridge, "--format", "json", "-o", file.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        let root = try JSONDocument(bytes: Array(try Data(contentsOf: file))).root
        #expect(root["command"]?.stringValue == "stats")
    }

    @Test("help is available for the program and for every command, both ways")
    func help() throws {
        let program = try HapscopeBinary.run(["--help"])
        #expect(program.status == 0)
        for command in ["summary", "discover", "pairing", "tree", "timeline", "http", "stats", "events", "tlv", "live"] {
            #expect(program.standardOutput.contains("\n  \(command) "), "\(command) listed")
            let viaFlag = try HapscopeBinary.run([command, "--help"])
            let viaHelp = try HapscopeBinary.run(["help", command])
            #expect(viaFlag.status == 0)
            #expect(viaFlag.standardOutput == viaHelp.standardOutput)
            #expect(viaFlag.standardOutput.hasPrefix("usage: hapscope \(command) "))
            #expect(viaFlag.standardOutput.contains("exit status:"), "\(command) documents its exit status")
        }
        let limits = try HapscopeBinary.run(["help", "limits"])
        for name in ["tcp.connections", "tcp.idle-timeout", "http.body", "json.depth", "frame.length"] {
            #expect(limits.standardOutput.contains(name))
        }
        #expect(try HapscopeBinary.run(["summary", "--help"]).standardOutput.contains("http.header-block"))
        #expect(try HapscopeBinary.run(["--version"]).standardOutput.hasPrefix("hapscope "))
    }

    @Test("an unknown option is one line with a suggestion, status 2")
    func unknownOption() throws {
        try Self.expectError(["summary", "--keylgo", Self.bridgeKeys, Self.bridge], saying: "unknown option '--keylgo' for summary; did you mean '--keylog'?")
    }

    @Test("an unknown command is one line with a suggestion, status 2")
    func unknownCommand() throws {
        try Self.expectError(["sumary", Self.bridge], saying: "unknown command 'sumary'; did you mean 'summary'?")
        try Self.expectError(["help", "pairng"], saying: "did you mean 'pairing'?")
    }

    @Test("a bad option value is one line naming what is accepted, status 2")
    func badValues() throws {
        try Self.expectError(["summary", "--format", "yaml", Self.bridge], saying: "option --format takes one of text, json, ndjson, html, not 'yaml'")
        try Self.expectError(["summary", "--limit", "tcp.conections=2", Self.bridge], saying: "unknown limit 'tcp.conections'; did you mean 'tcp.connections'?")
        try Self.expectError(["summary", "--limit", "http.body=lots", Self.bridge], saying: "--limit http.body takes a byte count")
        try Self.expectError(["summary", "--setup-code", "12345678", Self.bridge], saying: "--setup-code: \"12345678\" is not a HAP setup code")
        try Self.expectError(["live", "-i", "lo", "--duration", "soon"], saying: "--duration takes a time")
        try Self.expectError(["http", "-i", "lo", Self.bridge], saying: "read captures or capture live with -i, not both")
        try Self.expectError(["live"], saying: "live needs an interface: -i IFACE")
    }

    @Test("a missing capture or key log is one line, status 2")
    func missingFiles() throws {
        try Self.expectError(["summary", "captures/missing.pcap"], saying: "captures/missing.pcap: no such file")
        try Self.expectError(["summary", Self.bridge, "--keylog", "captures/missing.keylog"], saying: "captures/missing.keylog: no such file")
        try Self.expectError(["summary"], saying: "no capture given")
    }

    @Test("a file that is not a capture is one line, status 2")
    func notACapture() throws {
        try Self.expectError(["summary", Self.bridgeKeys], saying: "captures/bridge.keylog: not a pcap or pcapng capture file")
        try Self.expectError(["summary", "captures"], saying: "captures: cannot read: it is a directory")
    }

    @Test("a bad key-log line stops the command, naming the file and line, status 2")
    func badKeyLog() throws {
        let keyLog = try Self.temporaryFile("keys.txt", Data("# comment\nPAIR_VERIFY_SHARED_SECRET 00 1234\n".utf8))
        defer { try? FileManager.default.removeItem(at: keyLog.deletingLastPathComponent()) }
        try Self.expectError(["summary", Self.bridge, "--keylog", keyLog.path], saying: "\(keyLog.path):2: PAIR_VERIFY_SHARED_SECRET: the secret field should be 32 bytes, found 2")
    }

    @Test("a damaged capture is reported up to the damage, which is named with its offset, status 2")
    func damagedCapture() throws {
        let bytes = try Data(contentsOf: RecordedCapture.directory.appendingPathComponent("bridge.pcap"))
        let damaged = try Self.temporaryFile("damaged.pcap", bytes.prefix(5000))
        defer { try? FileManager.default.removeItem(at: damaged.deletingLastPathComponent()) }
        let result = try HapscopeBinary.run(["summary", damaged.path])
        #expect(result.status == 2)
        #expect(result.standardOutput.contains("traffic       29 packets"))
        #expect(result.standardOutput.contains("problems    1 (1 capture-file)"))
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains("damaged.pcap: damaged at byte 5000 after 29 packets"))
        #expect(result.standardError.contains("the report covers the packets before the damage"))
    }

    @Test("tlv exits 0 for a clean blob, 1 for a broken one, 2 for input it cannot read")
    func tlvStatus() throws {
        let clean = try HapscopeBinary.run(["tlv", "06 01 01 00 01 00"])
        #expect(clean.status == 0)
        #expect(clean.standardOutput.contains("strict decode: ok"))
        let broken = try HapscopeBinary.run(["tlv", "0601020310", "--as", "pair-setup"])
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("strict decode: truncated at byte 3"))
        try Self.expectError(["tlv", "not hex!"], saying: "the command line: not hex or base64")
        // HAP: Pair Verify M4 is the State alone.
        let file = try Self.temporaryFile("blob.bin", Data([0x06, 0x01, 0x04]))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let fromFile = try HapscopeBinary.run(["tlv", "@" + file.path, "--as", "pair-verify", "--format", "json"])
        #expect(fromFile.status == 0)
        #expect(try JSONDocument(bytes: Array(fromFile.outputBytes)).root["message"]?["state"]?.stringValue == "M4")
        let fromStandardInput = try HapscopeBinary.run(["tlv", "-"], input: Data("BgED".utf8))
        #expect(fromStandardInput.standardOutput.contains("state       1  M3"))
    }

    @Test("tree reads an /accessories dump in either JSON form")
    func treeDump() throws {
        let capture = try RecordedAnalysis("bridge")
        let body = try #require(capture.accessoriesBody)
        let object = try Self.temporaryFile("accessories.json", Data(body))
        defer { try? FileManager.default.removeItem(at: object.deletingLastPathComponent()) }
        let text = String(decoding: body, as: UTF8.self)
        let listStart = try #require(text.firstIndex(of: "["))
        let list = try Self.temporaryFile("list.json", Data(("  " + text[listStart...].dropLast()).utf8))
        defer { try? FileManager.default.removeItem(at: list.deletingLastPathComponent()) }
        let fromObject = try HapscopeBinary.run(["tree", object.path])
        let fromList = try HapscopeBinary.run(["tree", list.path])
        let fromCapture = try HapscopeBinary.run(["tree", Self.bridge, "--keylog", Self.bridgeKeys])
        #expect(fromObject.status == 0 && fromList.status == 0)
        func tree(_ text: String) -> String { text.split(separator: "\n").dropFirst().joined(separator: "\n") }
        #expect(tree(fromObject.standardOutput) == tree(fromCapture.standardOutput))
        #expect(tree(fromList.standardOutput) == tree(fromCapture.standardOutput))
        let piped = try HapscopeBinary.run(["tree", "--dump", "-"], input: Data(body))
        #expect(tree(piped.standardOutput) == tree(fromCapture.standardOutput))
        let notJSON = try Self.temporaryFile("broken.json", Data("{\"accessories\": [".utf8))
        defer { try? FileManager.default.removeItem(at: notJSON.deletingLastPathComponent()) }
        try Self.expectError(["tree", notJSON.path], saying: "broken.json: not an /accessories dump: json: truncated")
    }

    @Test("the NDJSON event stream is the same on every run and names inputs without their directory")
    func deterministicEventStream() throws {
        let first = try HapscopeBinary.run(["events", "--format", "ndjson", "--keylog", Self.bridgeKeys, Self.bridge])
        let copy = try Self.temporaryFile("bridge.pcap", try Data(contentsOf: RecordedCapture.directory.appendingPathComponent("bridge.pcap")))
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let second = try HapscopeBinary.run(["events", "--format", "ndjson", "--keylog", Self.bridgeKeys, copy.path])
        #expect(first.status == 0)
        #expect(first.outputBytes == second.outputBytes)
        #expect(!first.standardOutput.contains(RecordedCapture.packageDirectory.path))
    }

    @Test("color is used only on a terminal: never in a pipe, whatever the options")
    func noColorInPipes() throws {
        let result = try HapscopeBinary.run(["pairing", "captures/wrong-code.pcapng"])
        #expect(!result.standardOutput.contains("\u{1B}"))
    }
}
