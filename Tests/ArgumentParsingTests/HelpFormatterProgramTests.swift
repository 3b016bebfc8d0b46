import Testing
@testable import ArgumentParsing

/// The program's own help, written from the `ProgramSpec` the manual page is written from.
@Suite struct ProgramHelpTests {
    let help = HelpFormatter.help(for: SampleProgram.program)

    @Test func listsTheSynopsisTheDescriptionAndEveryCommandWithItsSummary() {
        #expect(help.hasPrefix("usage: tool [command] [options] [file ...]\n\ntool reads files.\n\nIt writes them too.\n"))
        #expect(help.contains("commands (read when none is named):\n  read   Read files → a report.\n  write  Write a file.\n"))
    }

    @Test func listsTheCommonOptionsThenTheProgramsOwnOnce() {
        #expect(help.contains("""
            common options (each command's --help lists its own):
              -r, --read FILE  read FILE [it's a capture]; repeatable
              -q, --quiet      say less
              -h, --help       show this help
              -V, --version    print the version

            """))
    }

    @Test func printsTheSectionsMeantForItWithTextOfSeveralLinesUnderItsFirst() {
        #expect(help.hasSuffix("environment:\n  TOOL_HOME  where tool keeps\n             its files\n"))
        #expect(!help.contains("EXAMPLES") && !help.contains("tshark"))
    }

    @Test func aCommandsHelpEndsWithItsSharedDetails() {
        let command = HelpFormatter.help(for: SampleProgram.readCommand, program: "tool")
        #expect(command.hasSuffix("  tool read -q b.pcap   quietly\n\nshared: said once in the manual\n"))
    }
}
