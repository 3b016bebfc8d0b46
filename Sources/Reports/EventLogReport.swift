import HAPEvents
import HAPJSON

/// Every event of the analysis in capture order: `hapscope events` and `hapscope live`.
///
/// Text is one line per event (see `EventText`), written as each event arrives. NDJSON is the
/// whole event stream, one object per line, deterministic for a given input and options: the
/// "expected decode" a regression test compares against.
public typealias EventLogReport = StreamedReport<EventLines>

extension StreamedReport where Text == EventLines {
    /// - Parameter command: the command name written into the JSON header (`events`, `live`).
    public convenience init(output: ReportOutput, settings: ReportSettings, command: String = "events") {
        self.init(output: output, settings: settings, text: EventLines(command: command))
    }
}

/// The text of `hapscope events` and `hapscope live`: one line per event (see `EventText`).
public struct EventLines: StreamedText {
    public let command: String

    init(command: String) {
        self.command = command
    }

    public func carries(_ kind: HAPEvent.Kind) -> Bool { true }
    public var carriesEveryEvent: Bool { true }
    public var writesContextEvents: Bool { true }

    public mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool {
        page.write(EventText.line(event, clock: page.clock, style: page.style) + "\n")
        return true
    }

    public var closingWords: String? { nil }
}
