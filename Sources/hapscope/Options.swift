import ArgumentParsing

/// The options several commands share, described once (docs/cli.md, "Options").
enum Options {
    static let read = OptionSpec(
        ["-r", "--read"], .value(name: "FILE"), valueKind: .file, repeatable: true,
        help: "read a pcap or pcapng capture (- for standard input); the same as naming it")
    static let keyLog = OptionSpec(
        ["--keylog"], .value(name: "FILE"), valueKind: .file, repeatable: true,
        help: "decrypt with the secrets in FILE (docs/keylog.md); $HAPKEYLOGFILE is read too")
    static let noKeyLog = OptionSpec(
        ["--no-keylog"], help: "do not read the key log NAME.keylog found beside a capture NAME.pcap or NAME.btsnoop")
    static let filter = OptionSpec(
        ["-f", "--filter"], .value(name: "BPF"),
        help: "capture filter in libpcap syntax; packet numbers then count matching packets only")
    static let setupCode = OptionSpec(
        ["--setup-code"], .value(name: "XXX-XX-XXX"), help: "the accessory's setup code, for the checks that need it")
    static let setupID = OptionSpec(
        ["--setup-id"], .value(name: "ID"), help: "the 4-character setup ID, to check advertised setup hashes (sh)")
    static let format = OptionSpec(
        ["--format"], .value(name: "FORMAT"), choices: OutputFormat.allCases.map(\.rawValue),
        help: "the output format, text by default (JSON schema: docs/json.md)")
    static let output = OptionSpec(["-o", "--output"], .value(name: "FILE"), valueKind: .file, help: "write the report to FILE")
    static let quiet = OptionSpec(["-q", "--quiet"], help: "no progress bar or notes on standard error (errors still show)")
    static let noColor = OptionSpec(["--no-color"], help: "never color the text (NO_COLOR set does the same)")
    static let noProgress = OptionSpec(["--no-progress"], help: "no progress bar")
    static let showKeys = OptionSpec(
        ["--show-keys"], help: "show session keys in the report; without it no secret is ever printed")
    static let limit = OptionSpec(
        ["--limit"], .value(name: "NAME=VALUE"), valueKind: .assignment(names: LimitOption.names), repeatable: true,
        help: "change a resource limit (hapscope help limits lists them)")
    static let jobs = OptionSpec(
        ["--jobs"], .value(name: "N"),
        help: "analyse HAP-over-IP connections on N threads, the report the same (default: the cores available; 1: one thread)")
    static let interface = OptionSpec(
        ["-i", "--interface"], .value(name: "IFACE"), valueKind: .interface, help: "capture live on IFACE instead of reading captures")
    static let count = OptionSpec(["-c", "--count"], .value(name: "N"), help: "with -i: stop after N packets")
    static let duration = OptionSpec(
        ["--duration"], .value(name: "TIME"), help: "with -i: stop after TIME (30, 30s, 500ms, 5m, 1h)")
    static let verbose = OptionSpec(["-v", "--verbose"], help: "show more detail (see below)")
    static let accessories = OptionSpec(
        ["--accessories"], .value(name: "FILE"), valueKind: .file, repeatable: true,
        help: "type characteristics by the /accessories in FILE (a dump, or an earlier capture) when the capture holds none")
    static let dump = OptionSpec(
        ["--dump"], help: "read every input as an /accessories JSON dump, standard input included")
    static let help = OptionSpec(["-h", "--help"], help: "show this help")
    static let version = OptionSpec(["-V", "--version"], help: "print the version and the commit it was built from")

    /// What every command that analyses a capture takes.
    static let analysis: [OptionSpec] = [
        read, interface, count, duration, keyLog, noKeyLog, accessories, filter, setupCode, setupID, showKeys, limit, jobs, format, output,
        quiet, noColor, noProgress, help,
    ]

    /// The options of a live capture (`-i`), which commands that only read files do without.
    static let liveCapture = [interface, count, duration]

    /// The analysis options but those in `excluded`, for a command to which they do not apply.
    static func analysis(excluding excluded: [OptionSpec]) -> [OptionSpec] {
        let excludedKeys = excluded.map(\.key)
        return analysis.filter { !excludedKeys.contains($0.key) }
    }

    /// How `--limit` is spelled, and the limits with their defaults.
    static let limitDetails = """
        limits (--limit NAME=VALUE; byte counts take k, M or G):
        \(LimitOption.helpTable)
        """

    /// The paragraphs that end the help of every analysing command.
    static let analysisDetails = """
        Captures are pcap or pcapng files, read in order as one; packets are numbered from 1 as
        Wireshark numbers them. Times are seconds since the first packet, whose absolute time is
        shown once. With -i the same report is made from a live interface until Ctrl-C, --count or
        --duration ends the capture.

        \(limitDetails)

        --jobs N analyses the connections to different accessory addresses on N threads and merges
        their events in capture order, so that every report is the one a single thread writes. Where
        one connection's facts (a long-term key, a database, a key-log session) serve a connection to
        another address, the run says so on standard error and goes on as one job. Live capture (-i),
        standard input and the commands that write a decrypted capture run one job: they need every
        packet in order on one thread, or cannot read their input twice.

        exit status: 0 success; 2 usage or input error (unknown option, missing or unreadable
        file, bad key-log line) or a damaged capture: the packets before the damage are analysed
        and reported, and the damage is named with its byte offset on standard error.
        """
}
