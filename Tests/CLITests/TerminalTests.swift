import Foundation
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// What `hapscope` does when a person is watching: run under `script(1)`, which gives it a
/// pseudo-terminal for standard output and standard error.
@Suite("On a terminal")
struct TerminalTests {
    /// Runs hapscope on a pseudo-terminal and returns what the terminal received (both streams).
    static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            try Test.cancel("script(1) from util-linux is needed to give hapscope a terminal")
        }
        let quoted = ([HapscopeBinary.url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let variables = environment.map { "\($0.key)='\($0.value)' " }.joined()
        let result = try HapscopeBinary.run(["-qec", variables + quoted.joined(separator: " "), "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    @Test("text is colored on a terminal, and --no-color or NO_COLOR turns color off")
    func color() throws {
        let capture = RecordedCapture("wrong-code").capturePath
        #expect(try Self.onTerminal(["pairing", capture]).contains("\u{1B}[1;31mfailed at M4: Authentication (2)\u{1B}[0m"))
        #expect(!(try Self.onTerminal(["pairing", capture, "--no-color"]).contains("\u{1B}[")))
        #expect(!(try Self.onTerminal(["pairing", capture], environment: ["NO_COLOR": "1"]).contains("\u{1B}[")))
        #expect(try Self.onTerminal(["pairing", capture], environment: ["NO_COLOR": ""]).contains("\u{1B}[1;31m"),
                "an empty NO_COLOR does not count (no-color.org)")
    }

    @Test("a progress bar shows on a terminal while files are read, and not with --no-progress")
    func progress() throws {
        // Thirteen copies of an 85-packet capture pass the 1024 packets after which the bar is drawn.
        let files = Array(repeating: RecordedCapture("bridge").capturePath, count: 13)
        let shown = try Self.onTerminal(["stats", "--no-color"] + files)
        #expect(shown.contains("\r\u{1B}[K["))
        #expect(shown.contains("1024 packets"))
        #expect(shown.contains("totals  1105 packets"))
        let hidden = try Self.onTerminal(["stats", "--no-color", "--no-progress"] + files)
        #expect(!hidden.contains("\u{1B}[K"))
    }
}
