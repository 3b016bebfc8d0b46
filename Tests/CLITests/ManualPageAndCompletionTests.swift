import Foundation
import Testing
import TestSupport

/// `hapscope help --man` and `hapscope help --completion bash|zsh` say what `--help` says: the
/// commands, each command's options, and what each option does. They are written from one table;
/// these tests read what the binary prints, as a user would, and fail where the two disagree.
@Suite("Manual page and completions")
struct ManualPageAndCompletionTests {
    /// The commands `hapscope --help` lists, `help` included.
    static func commands() throws -> [String] {
        let help = try HapscopeBinary.run(["--help"]).standardOutput
        return help.split(separator: "\n").drop { !$0.hasPrefix("commands") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// A command's option table in its `--help`: each row's label (`-r, --read FILE`) and text.
    static func helpOptions(_ command: String) throws -> [(label: String, text: String)] {
        let help = try HapscopeBinary.run([command, "--help"])
        try #require(help.status == 0, "\(command) --help")
        let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        var rows: [(label: String, text: String)] = []
        for line in lines.drop(while: { $0 != "options:" }).dropFirst().prefix(while: { !$0.isEmpty }) {
            if line.hasPrefix("  -") {
                let row = line.dropFirst(2)
                let label = row.range(of: "  ").map { String(row[..<$0.lowerBound]) } ?? String(row)
                let text = String(row.dropFirst(label.count).drop { $0 == " " })
                rows.append((label, text))
            } else if let last = rows.indices.last, rows[last].text.isEmpty {
                // A long label has its text on the next line.
                rows[last].text = String(line.drop { $0 == " " })
            }
        }
        return rows
    }

    /// `-r, --read FILE` → `-r`, `--read`.
    static func names(_ label: String) -> [String] {
        label.split(separator: ", ").map { String($0.split(separator: " ")[0]) }
    }

    static func manualPage() throws -> [String] {
        let result = try HapscopeBinary.run(["help", "--man"])
        try #require(result.status == 0)
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    /// The lines from `.SS name` (or `.SH name`) to the next heading.
    static func section(_ heading: String, of page: [String]) -> [String] {
        Array(page.drop { $0 != heading }.dropFirst().prefix { !$0.hasPrefix(".SS") && !$0.hasPrefix(".SH") })
    }

    @Test("the manual page has a section for every command --help lists, and no other")
    func everyCommandHasASection() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 15 && commands.contains("summary") && commands.contains("help"))
        let page = try Self.manualPage()
        let sections = page.filter { $0.hasPrefix(".SS ") }.map { String($0.dropFirst(4)) }
        #expect(sections == commands)
    }

    @Test("every command's option list in the manual page is the option table of its --help")
    func optionListsAgree() throws {
        let page = try Self.manualPage()
        for command in try Self.commands() {
            let listed = Self.section(".SS \(command)", of: page).filter { $0.hasPrefix(#"\%["#) }.flatMap { line -> [String] in
                // [-r|--read FILE]... → -r, --read
                let option = RoffText.plain(line).dropFirst().prefix { $0 != "]" }
                return option.split(separator: " ")[0].split(separator: "|").map(String.init)
            }
            let table = try Self.helpOptions(command).flatMap { Self.names($0.label) }
            #expect(!table.isEmpty, "\(command) has options")
            #expect(listed == table, "\(command)")
        }
    }

    @Test("OPTIONS explains every option of every command in the words of its --help")
    func optionTextsAgree() throws {
        let page = try Self.manualPage()
        let options = RoffText.plain(Self.section(".SH OPTIONS", of: page).joined(separator: "\n"))
        for command in try Self.commands() {
            for option in try Self.helpOptions(command) {
                #expect(options.contains(".TP\n\(option.label)\n\(option.text)\n"), "\(command): \(option.label)")
            }
        }
    }

    @Test("each command's summary in the manual page is the one --help gives")
    func summariesAgree() throws {
        let page = try Self.manualPage()
        for command in try Self.commands() {
            let help = try HapscopeBinary.run(["help", command == "help" ? "--help" : command]).standardOutput
            let summary = help.split(separator: "\n")[1]
            #expect(RoffText.plain(Self.section(".SS \(command)", of: page).joined(separator: "\n")).contains(summary), "\(command)")
        }
    }

    @Test("the bash completion offers each command's options as its --help lists them")
    func bashCompletionOffersEveryOption() throws {
        let script = try HapscopeBinary.run(["help", "--completion", "bash"])
        try #require(script.status == 0)
        let scratch = try ScratchDirectory()
        let file = try scratch.write(script.standardOutput, to: "hapscope.bash")
        let commands = try Self.commands()
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["--norc", "--noprofile", "-c", """
            source "$1" || exit 1
            shift
            for command in "$@"; do
                COMP_WORDS=(hapscope "$command" -) COMP_CWORD=2 COMPREPLY=()
                _hapscope
                echo "$command: ${COMPREPLY[*]}"
            done
            """, "bash", file] + commands
        let output = Pipe()
        bash.standardOutput = output
        try bash.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        #expect(lines.count == commands.count)
        for (command, line) in zip(commands, lines) {
            let offered = line.split(separator: " ").dropFirst().map(String.init)
            #expect(offered == (try Self.helpOptions(command).flatMap { Self.names($0.label) }), "\(command)")
        }
    }

    @Test("the zsh completion describes every command and each command's options")
    func zshCompletionHasEveryOption() throws {
        let result = try HapscopeBinary.run(["help", "--completion", "zsh"])
        try #require(result.status == 0)
        let script = result.standardOutput
        #expect(script.hasPrefix("#compdef hapscope\n"))
        for command in try Self.commands() {
            #expect(script.contains("\n        '\(command):"), "\(command) described")
            let block = script.components(separatedBy: "\n        ('\(command)')\n").dropFirst().first?
                .components(separatedBy: "\n            ;;").first ?? ""
            for option in try Self.helpOptions(command) {
                for name in Self.names(option.label) {
                    #expect(block.range(of: "[ {,'*]\(name)[+=,}'\\[]", options: .regularExpression) != nil, "\(command) \(name)")
                }
            }
        }
    }

    @Test("--version names the version and the commit the binary was built from")
    func versionNamesTheCommit() throws {
        let version = try HapscopeBinary.run(["--version"])
        #expect(version.status == 0)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", RecordedCapture.packageDirectory.path, "rev-parse", "--short", "HEAD"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        try git.run()
        let commit = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        git.waitUntilExit()
        let isCheckout = FileManager.default.fileExists(atPath: RecordedCapture.packageDirectory.appendingPathComponent(".git").path)
        let expected = git.terminationStatus == 0 && isCheckout ? commit : "unknown"
        #expect(version.standardOutput.range(of: #"^hapscope [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]+|unknown)\)\n$"#, options: .regularExpression) != nil)
        #expect(version.standardOutput.hasSuffix(" (commit \(expected))\n"), "\(version.standardOutput)")
        #expect(try HapscopeBinary.run(["-V"]).standardOutput == version.standardOutput)
    }

    @Test("help takes one of a topic, --man and --completion, and names the shells it completes for")
    func helpRefusesWhatItCannotDo() throws {
        try CommandLineTests.expectError(["help", "--man", "summary"], saying: "help takes one of a topic, --man or --completion")
        try CommandLineTests.expectError(["help", "--completion", "fish"], saying: "option --completion takes one of bash, zsh, not 'fish'")
        try CommandLineTests.expectError(["help", "summary", "tree"], saying: "help takes at most 1 topic(s)")
    }
}

/// Roff as the reader sees it: font changes and zero-width escapes dropped, `\-`, `\e`, `\ `,
/// `\(dq` and `\[uXXXX]` turned back into the characters they print.
enum RoffText {
    static func plain(_ roff: String) -> String {
        var text = ""
        var characters = roff[...]
        while let character = characters.popFirst() {
            guard character == "\\", let escape = characters.popFirst() else {
                text.append(character)
                continue
            }
            switch escape {
            case "f": _ = characters.popFirst()
            case "-": text.append("-")
            case "e": text.append("\\")
            case " ": text.append(" ")
            case "&", "%": break
            case "(":
                let name = characters.prefix(2)
                characters = characters.dropFirst(2)
                text.append(name == "dq" ? "\"" : "\\(\(name)")
            case "[":
                let name = characters.prefix { $0 != "]" }
                characters = characters.dropFirst(name.count + 1)
                if name.hasPrefix("u"), let value = UInt32(name.dropFirst(), radix: 16), let scalar = Unicode.Scalar(value) {
                    text.unicodeScalars.append(scalar)
                } else {
                    text += "\\[\(name)]"
                }
            default: text += "\\\(escape)"
            }
        }
        return text
    }
}
