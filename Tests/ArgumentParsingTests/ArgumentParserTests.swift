import Testing
@testable import ArgumentParsing

private let audit = CommandSpec(
    name: "audit",
    summary: "Report security and conformance findings.",
    usage: "[options] [capture ...]",
    options: [
        OptionSpec(["-r", "--read"], .value(name: "FILE"), repeatable: true, help: "read a capture file"),
        OptionSpec(["--keylog"], .value(name: "FILE"), repeatable: true, help: "a HAP key log"),
        OptionSpec(["--format"], .value(name: "FORMAT"), choices: ["text", "json", "html"], help: "output format"),
        OptionSpec(["-o", "--output"], .value(name: "FILE"), help: "write the report here"),
        OptionSpec(["-q", "--quiet"], help: "print nothing but the report"),
    ],
    positionalName: "capture")

@Suite struct ArgumentParserTests {
    @Test func acceptsEveryValueSpelling() throws {
        let parsed = try ArgumentParser.parse(
            ["-r", "a.pcap", "--read=b.pcap", "-rc.pcap", "--format", "json", "-o", "out.json", "d.pcap"], for: audit)
        #expect(parsed.values("--read") == ["a.pcap", "b.pcap", "c.pcap"])
        #expect(parsed.value("--format") == "json")
        #expect(parsed.value("--output") == "out.json")
        #expect(parsed.positionals == ["d.pcap"])
    }

    @Test func aLaterValueOverridesAnEarlierOne() throws {
        let parsed = try ArgumentParser.parse(["--format", "text", "--format", "html"], for: audit)
        #expect(parsed.value("--format") == "html")
    }

    @Test func flagsAreRecordedUnderTheirLongName() throws {
        let parsed = try ArgumentParser.parse(["-q"], for: audit)
        #expect(parsed.has("--quiet"))
        #expect(!parsed.has("--output"))
    }

    @Test func aLoneDashAndEverythingAfterDoubleDashArePositionals() throws {
        let parsed = try ArgumentParser.parse(["-", "--", "-q", "--format"], for: audit)
        #expect(parsed.positionals == ["-", "-q", "--format"])
        #expect(!parsed.has("--quiet"))
    }

    @Test func anUnknownOptionIsNamedWithASuggestion() {
        #expect(throws: UsageError("unknown option '--keylgo' for audit; did you mean '--keylog'? (see 'hapscope audit --help')")) {
            try ArgumentParser.parse(["--keylgo", "k.txt"], for: audit)
        }
    }

    @Test func anUnknownOptionFarFromEveryNameGetsNoSuggestion() {
        #expect(throws: UsageError("unknown option '--zzzzzzzz' for audit (see 'hapscope audit --help')")) {
            try ArgumentParser.parse(["--zzzzzzzz"], for: audit)
        }
    }

    @Test func aMissingValueIsNamed() {
        #expect(throws: UsageError("option --keylog needs a value (FILE)")) {
            try ArgumentParser.parse(["--keylog"], for: audit)
        }
    }

    @Test func aValueOutsideTheChoicesIsRejectedWithASuggestion() {
        #expect(throws: UsageError("option --format takes one of text, json, html, not 'jsn'; did you mean 'json'?")) {
            try ArgumentParser.parse(["--format", "jsn"], for: audit)
        }
    }

    @Test func aFlagGivenAValueIsRejected() {
        #expect(throws: UsageError("option --quiet takes no value")) {
            try ArgumentParser.parse(["--quiet=yes"], for: audit)
        }
    }

    @Test func tooManyPositionalsAreRejected() {
        let tlv = CommandSpec(name: "tlv", summary: "", usage: "", options: [], positionalName: "blob", maximumPositionals: 1)
        #expect(throws: UsageError("tlv takes at most 1 blob(s); 'b' is one too many")) {
            try ArgumentParser.parse(["a", "b"], for: tlv)
        }
    }

    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(ArgumentParser.editDistance("kitten", "sitting") == 3)
        #expect(ArgumentParser.editDistance("", "abc") == 3)
        #expect(ArgumentParser.editDistance("same", "same") == 0)
    }
}

@Suite struct HelpFormatterTests {
    @Test func helpListsUsageSummaryAndEveryOptionWithItsChoices() {
        let help = HelpFormatter.help(for: audit, program: "hapscope")
        #expect(help.hasPrefix("usage: hapscope audit [options] [capture ...]\n\nReport security and conformance findings.\n"))
        for option in audit.options {
            for name in option.names { #expect(help.contains(name)) }
        }
        #expect(help.contains("output format (text|json|html)"))
        #expect(help.contains("-r, --read FILE"))
        #expect(help.contains("read a capture file; repeatable"))
    }
}
