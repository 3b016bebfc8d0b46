import Foundation
import Testing
@testable import ArgumentParsing

/// The bash completion script, run: sourced into a non-interactive bash in a directory of a few
/// files, with COMP_WORDS and COMP_CWORD set as bash sets them for the line being completed (the
/// last word is the one under the cursor; bash splits `--name=value` at the `=`).
@Suite struct BashCompletionTests {
    static let script = BashCompletion.script(for: SampleProgram.program)

    func completions(_ words: String...) throws -> [String] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bash-completion-\(UUID().uuidString)")
        let directory = scratch.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("beta"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for file in ["alpha.pcap", "alpha.keylog"] {
            try Data().write(to: directory.appendingPathComponent(file))
        }
        try Data(Self.script.utf8).write(to: scratch.appendingPathComponent("completion.bash"))
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["--norc", "--noprofile", "-c", """
            source ../completion.bash || exit 1
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _tool
            (( ${#COMPREPLY[@]} )) && printf '%s\\n' "${COMPREPLY[@]}"
            exit 0
            """, "bash"] + words
        bash.currentDirectoryURL = directory
        let output = Pipe()
        bash.standardOutput = output
        try bash.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        try #require(bash.terminationStatus == 0)
        return text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func registersItsFunctionForTheProgram() {
        #expect(Self.script.hasSuffix("\ncomplete -F _tool tool\n"))
    }

    @Test func theFirstWordIsACommandOrAFileOfTheDefaultCommand() throws {
        #expect(try completions("tool", "r") == ["read"])
        #expect(try completions("tool", "w") == ["write"])
        #expect(try completions("tool", "al") == ["alpha.keylog", "alpha.pcap"])
    }

    @Test func optionsAreTheCommandsOwnAndWithoutACommandTheDefaultsAndTheProgramsOwn() throws {
        #expect(try completions("tool", "read", "--fo") == ["--format"])
        #expect(try completions("tool", "write", "--") == ["--dry-run", "--format", "--help", "--output", "--quiet"])
        #expect(try completions("tool", "-") == [
            "--format", "--help", "--interface", "--limit", "--quiet", "--read", "--version", "-V", "-h", "-i", "-q", "-r",
        ])
    }

    @Test func anOptionsValueIsOfferedByItsKind() throws {
        #expect(try completions("tool", "write", "--format", "") == ["junit", "text"], "the command's own choices")
        #expect(try completions("tool", "read", "--format", "=", "t") == ["text"], "--format=t")
        #expect(try completions("tool", "read", "--format", "=") == ["json", "text"], "--format=")
        #expect(try completions("tool", "--limit", "a.") == ["a.one=", "a.two="])
        #expect(try completions("tool", "--limit", "a.one", "=", "") == [], "the value of NAME=VALUE is free")
        #expect(try completions("tool", "read", "-r", "alpha.p") == ["alpha.pcap"])
        #expect(try completions("tool", "read", "-i", "l").contains("lo"))
    }

    @Test func positionalsAreOfferedByTheirKindAndAfterDoubleDashThereAreNoOptions() throws {
        #expect(try completions("tool", "read", "--quiet", "") == ["alpha.keylog", "alpha.pcap", "beta"])
        #expect(try completions("tool", "write", "") == ["beta"], "a directory")
        #expect(try completions("tool", "read", "--", "--f") == [])
    }
}
