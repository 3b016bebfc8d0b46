import HAPEvents

/// What a streamed report shows in text: the lines of the events it selects, as they arrive, and
/// its closing words. JSON and NDJSON are the same for every streamed report (the selected events
/// with their context, `EventStreamWriter`), so a streamed report is a selection plus this.
public protocol StreamedText {
    /// The command named in the JSON header: `discover`, `http`.
    var command: String { get }
    /// Whether JSON and NDJSON carry the event (the context events — inputs, problems, totals —
    /// are carried anyway).
    func carries(_ kind: HAPEvent.Kind) -> Bool
    /// Whether every event is carried: the JSON `events` array then holds the problems too, as
    /// the NDJSON stream does.
    var carriesEveryEvent: Bool { get }
    /// Whether the report writes the context events (inputs, problems) as lines of its own
    /// rather than as the shared context lines.
    var writesContextEvents: Bool { get }
    /// Writes the event's lines, when the report shows it; returns whether it wrote a record.
    mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool
    /// The closing line's words (`34 HTTP messages`), nil for no closing line.
    var closingWords: String? { get }
    /// Whether a blank line separates the closing line from the last record.
    var separatesClosingLine: Bool { get }
}

extension StreamedText {
    public var carriesEveryEvent: Bool { false }
    public var writesContextEvents: Bool { false }
    public var separatesClosingLine: Bool { false }
}

/// Where a streamed report's text goes: the output, the style and the clock of the report.
public struct TextPage {
    let output: ReportOutput
    public let style: TextStyle
    public let clock: CaptureClock

    public func write(_ text: String) {
        output.write(text)
    }
}

/// A report written as events arrive (`discover`, `pairing`, `timeline`, `http`, `events`,
/// `live`): its selection and text come from `Text`; the format decides, in this one place,
/// whether the text or the event stream is written.
public final class StreamedReport<Text: StreamedText>: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private var text: Text
    private let stream: EventStreamWriter
    private var context: TextContext

    init(output: ReportOutput, settings: ReportSettings, text: Text) {
        self.output = output
        self.settings = settings
        self.text = text
        stream = EventStreamWriter(output: output, format: settings.format, command: text.command, selectsEveryEvent: text.carriesEveryEvent)
        context = TextContext(output: output, style: settings.style)
    }

    public func take(_ event: HAPEvent) {
        guard settings.format == .text else {
            if !stream.noteContext(event, clock: clock), text.carries(event.kind) { stream.write(event, clock: clock) }
            return
        }
        if text.writesContextEvents {
            context.writeTimeBaseIfDue(event, clock: clock)
        } else if context.handle(event, clock: clock) {
            return
        }
        if text.write(event, on: TextPage(output: output, style: settings.style, clock: clock)) { output.endOfRecord() }
    }

    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text:
            context.writeFindings(findings)
            if let words = text.closingWords {
                output.write((text.separatesClosingLine ? "\n" : "") + context.footer(words) + "\n")
            }
        case .json, .ndjson:
            stream.finish(clock: clock, findings: findings)
        }
        output.endOfRecord()
    }
}
