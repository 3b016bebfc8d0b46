import Testing
@testable import ArgumentParsing

@Suite struct ZshCompletionTests {
    static let script = ZshCompletion.script(for: SampleProgram.program)

    @Test func anOptionIsEveryNameWithItsHelpItsValueAndWhatItExcludes() {
        #expect(ZshCompletion.specification(SampleProgram.read)
            == #"'*'{-r+,--read=}'[read FILE \[it'\''s a capture\]; repeatable]:FILE:_files'"#)
        #expect(ZshCompletion.specification(SampleProgram.readFormat) == #"--format='[the format (text|json)]:FORMAT:(text json)'"#)
        #expect(ZshCompletion.specification(SampleProgram.quiet) == #"'(-q --quiet)'{-q,--quiet}'[say less]'"#)
        #expect(ZshCompletion.specification(SampleProgram.interface)
            == #"'(-i --interface)'{-i+,--interface=}'[capture on IFACE]:IFACE:_net_interfaces'"#)
        #expect(ZshCompletion.specification(SampleProgram.limit)
            == #"'*'--limit='[change a limit; repeatable]:NAME=VALUE:{compadd -S "" -- a.one= a.two= b=}'"#)
        #expect(ZshCompletion.specification(SampleProgram.version, excludingEverything: true)
            == #"'(- *)'{-V,--version}'[print the version]'"#)
    }

    @Test func eachCommandHasItsArgumentsAndTheCommandsTheirSummaries() {
        #expect(Self.script.hasPrefix("#compdef tool\n"))
        #expect(Self.script.contains("""
                    ('write')
                        _arguments -S "$@" \\
                            '(-o --output)'{-o+,--output=}'[write to FILE]:FILE:_files' \\
                            --format='[the format (text|junit)]:FORMAT:(text junit)' \\
                            --dry-run'[write nothing]' \\
                            '(-q --quiet)'{-q,--quiet}'[say less]' \\
                            '(-h --help)'{-h,--help}'[show this help]' \\
                            ':directory:_files -/'
                        ;;
            """))
        #expect(Self.script.contains("            '*:file:_files'\n"))
        #expect(Self.script.contains("        'read:Read files → a report.'\n        'write:Write a file.'\n"))
        #expect(Self.script.contains("        _tool_command 'read' '(- *)'{-V,--version}'[print the version]'\n"))
        #expect(Self.script.hasSuffix("\n_tool \"$@\"\n"))
    }
}
