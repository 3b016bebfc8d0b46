import HAPEvents
import HAPJSON

/// Every event of the analysis in capture order: `hapscope events` and `hapscope live`.
///
/// Text is one line per event (see `EventText`), written as each event arrives. NDJSON is the
/// whole event stream, one object per line, deterministic for a given input and options: the
/// "expected decode" a regression test compares against.
public final class EventLogReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private let stream: EventStreamWriter
    private var context: TextContext

    /// - Parameter command: the command name written into the JSON header (`events`, `live`).
    public init(output: ReportOutput, settings: ReportSettings, command: String = "events") {
        self.output = output
        self.settings = settings
        stream = EventStreamWriter(output: output, format: settings.format, command: command, selectsEveryEvent: true)
        context = TextContext(output: output, style: settings.style)
    }

    public func take(_ event: HAPEvent) {
        guard settings.format == .text else {
            if !stream.noteContext(event, clock: clock) { stream.write(event, clock: clock) }
            return
        }
        context.writeTimeBaseIfDue(event, clock: clock)
        output.write(EventText.line(event, clock: clock, style: settings.style) + "\n")
        output.endOfRecord()
    }

    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text: context.writeFindings(findings)
        case .json, .ndjson: stream.finish(clock: clock, findings: findings)
        }
        output.endOfRecord()
    }
}
