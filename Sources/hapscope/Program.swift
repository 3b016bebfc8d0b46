import ArgumentParsing
import BuildInfo

/// hapscope as a whole, described once: `hapscope --help`, the manual page (`hapscope help --man`)
/// and the shell completions (`hapscope help --completion bash|zsh`) are written from it and from
/// the command table it holds.
extension Hapscope {
    static let program = ProgramSpec(
        name: "hapscope", version: BuildInfo.version,
        summary: "HomeKit Accessory Protocol capture and protocol analyzer",
        usage: ["[command] [options] [capture ...]"],
        description: """
            hapscope reads HomeKit Accessory Protocol traffic from pcap and pcapng captures, or from a
            live interface, and tells what happened: mDNS advertisements, pairing, encrypted sessions
            (with a key log), the accessory database and characteristic activity.

            Captures are pcap or pcapng files, named as arguments or with -r FILE; - reads standard
            input. Several files are read in order as one capture, and packets are numbered from 1
            across them as Wireshark numbers them (#38), so you can jump there. Times are seconds since
            the first packet, whose absolute time is shown once. -f BPF applies a capture filter
            (pcap-filter(7)) first; packet numbers then count the packets that passed it. -i IFACE
            captures live instead, for every command that reads captures.

            HAP sessions cannot be decrypted by watching them: --keylog FILE (or HAPKEYLOGFILE) names
            the secrets one end exported. No secret appears in any output unless --show-keys asks.
            Text is for people; --format json and ndjson are for programs (a versioned schema).
            """,
        commands: Command.all.map(\.spec) + [helpCommand],
        defaultCommand: Command.all[0].name,
        programOptions: [Options.help, Options.version],
        commonOptions: [
            Options.read, Options.keyLog, Options.filter, Options.format, Options.output, Options.showKeys, Options.limit,
            Options.quiet, Options.noColor, Options.noProgress,
        ],
        sections: [
            ManualSection("LIMITS", [
                .paragraph("""
                    Everything the wire can make hapscope hold is bounded, with defaults far above what
                    real accessories send. When a bound is reached the analysis goes on and says so
                    (stats lists the TCP bounds reached; the others appear as problems of the message
                    or session concerned). --limit NAME=VALUE changes a bound; byte counts take a k, M
                    or G suffix (powers of 1024), times are seconds. hapscope help limits lists them too.
                    """),
                .definitions(LimitOption.definitions),
            ]),
            ManualSection("ENVIRONMENT", inProgramHelp: true, [
                .definitions([
                    .init("HAPKEYLOGFILE", "key logs to read as well as --keylog, separated by colons"),
                    .init("NO_COLOR", "when set and not empty, no color (no-color.org)"),
                    .init("TERM", "dumb turns color off"),
                ]),
            ]),
            ManualSection("EXIT STATUS", inProgramHelp: true, [
                .definitions([
                    .init("0", "success"),
                    .init("1", "findings or failed checks, where a command says so (audit, check, tlv)"),
                    .init("2", """
                        usage or input error: unknown command or option, missing or unreadable file, bad
                        key-log line, damaged capture (the packets before the damage are still analysed
                        and reported)
                        """),
                ]),
                .paragraph("Every error is one line on standard error, starting 'hapscope: '."),
            ]),
            ManualSection("FILES", [
                .definitions([
                    .init("DIR/NAME.keylog", "the key log check reads for the capture DIR/NAME.pcap (or .pcapng, .btsnoop)"),
                    .init("DIR/expected/NAME.ndjson", "the expected decode check compares DIR/NAME.pcap with, and check --update writes"),
                ]),
            ]),
            ManualSection("EXAMPLES", [
                .example(
                    command: "hapscope capture.pcapng --keylog keys.txt",
                    comment: "A summary of a capture: accessories, pairing, sessions, activity, findings."),
                .example(
                    command: "hapscope pairing capture.pcapng --keylog keys.txt",
                    comment: "The pair-setup and pair-verify ladders, with their TLVs, timings and proofs."),
                .example(
                    command: "hapscope timeline capture.pcapng --keylog keys.txt --char temperature",
                    comment: "Follow one characteristic."),
                .example(
                    command: "hapscope events capture.pcapng --format ndjson | jq .",
                    comment: "The whole event stream, one JSON object a line."),
                .example(
                    command: "hapscope live -i eth0 -f 'port 5353 or tcp'",
                    comment: "The same analysis, live; Ctrl-C, --count or --duration stops it."),
                .example(
                    command: "hapscope audit capture.pcapng --keylog keys.txt --setup-code 123-45-678 --fail-on high",
                    comment: "A security audit for CI: exit status 1 when a finding reaches --fail-on."),
                .example(
                    command: "hapscope decrypt -r capture.pcapng --keylog keys.txt -w plain.pcap",
                    comment: "A decrypted copy of the capture, which Wireshark reads as plain HTTP."),
                .example(
                    command: "hapscope check --format junit -o check.xml captures/*.pcap",
                    comment: "Regression-test recorded captures against their expected decodes, as JUnit XML."),
            ]),
            ManualSection("SEE ALSO", [
                .references(["hapbench(1)", "tcpdump(8)", "tshark(1)", "wireshark(1)", "pcap-filter(7)"]),
                .paragraph("""
                    The documents of the source tree: docs/cli.md (the command line), docs/json.md (the
                    JSON schema), docs/keylog.md (key logs), docs/audit-rules.md (the audit's rules).
                    """),
            ]),
        ])

    /// `hapscope help`: the program's help, a command's, the limits, or the manual page and the
    /// completions that `make install` installs.
    static let manualPage = OptionSpec(["--man"], help: "print the manual page hapscope(1), in roff: man -l <(hapscope help --man)")
    static let completion = OptionSpec(
        ["--completion"], .value(name: "SHELL"), choices: ["bash", "zsh"], help: "print the completion script for SHELL")

    static let helpCommand = CommandSpec(
        name: "help",
        summary: "Help for a command (hapscope help COMMAND, or hapscope COMMAND --help), or for the limits.",
        usage: "[COMMAND|limits] | --man | --completion bash|zsh",
        options: [manualPage, completion, Options.help],
        positionalName: "topic", positionalKind: .oneOf(Command.all.map(\.name) + ["limits"]), maximumPositionals: 1,
        details: """
            --man and --completion write what 'make install' installs: the manual page hapscope(1)
            and the bash and zsh completions, generated from the same table as the help, so none can
            disagree with the options hapscope takes.
            """)
}
