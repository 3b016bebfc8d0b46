import ArgumentParsing
import Reports

extension Command {
    static let live = Command(spec: CommandSpec(
        name: "live",
        summary: "Analyse a live interface, printing events as they happen; Ctrl-C stops cleanly.",
        usage: "-i IFACE [options]",
        options: Options.liveCapture + [Options.filter, Options.keyLog, Options.setupCode,
                  Options.setupID, Options.showKeys, Options.limit, Options.format, Options.output, Options.quiet,
                  Options.noColor, Options.help],
        positionalName: nil, maximumPositionals: 0,
        details: """
            Events are written one per line (as 'hapscope events' writes them) the moment they are
            known, in every format. Ctrl-C (SIGINT) or SIGTERM, --count or --duration end the
            capture: open connections are then summarised and the report is completed; a second
            Ctrl-C quits at once. Capturing needs root, or CAP_NET_RAW and CAP_NET_ADMIN. Every
            other analysing command takes -i too: 'hapscope timeline -i eth0' follows
            characteristics live, 'hapscope summary -i eth0' sums up when the capture ends.

            exit status: 0 the capture ran and was stopped; 2 usage error or the interface could
            not be captured on.
            """, sharedDetails: Options.limitDetails)) { invocation throws(CommandFailure) in
        guard let interface = invocation.arguments.value(Options.interface.key) else {
            throw CommandFailure("live needs an interface: -i IFACE (see 'hapscope live --help')")
        }
        let driver = LiveDriver(run: AnalysisRun(invocation: invocation, configuration: try invocation.analysisConfiguration()), interface: interface)
        let capture = try driver.openCapture()
        let output = try invocation.makeOutput(streaming: true)
        let report = EventLogReport(output: output, settings: invocation.reportSettings, command: "live")
        return try driver.run(capture, into: report, output: output).status
    }
}
