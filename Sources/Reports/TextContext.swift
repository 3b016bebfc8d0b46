import HAPEvents

/// The lines every streamed text report shares: which input is read, what the times count
/// from, and problems where they occur.
struct TextContext {
    private let output: ReportOutput
    private let style: TextStyle
    private var wroteTimeBase = false
    /// The input's totals, once it has ended.
    private(set) var totals: InputSummary?

    init(output: ReportOutput, style: TextStyle) {
        self.output = output
        self.style = style
    }

    /// Writes the line for a context event (`input-opened`, `problem`, `input-ended` records the
    /// totals); returns false for any other event, after writing the time base line if it is due.
    mutating func handle(_ event: HAPEvent, clock: CaptureClock) -> Bool {
        switch event.kind {
        case .inputOpened(let input):
            output.write(style.paint("reading \(TerminalText.sanitized(input.name)) (\(input.linkType))", .dim) + "\n")
        case .problem:
            writeTimeBaseIfDue(event, clock: clock)
            output.write(EventText.line(event, clock: clock, style: style) + "\n")
            output.endOfRecord()
        case .inputEnded(let summary):
            totals = summary
        default:
            writeTimeBaseIfDue(event, clock: clock)
            return false
        }
        return true
    }

    /// Says once, before the first line with a time, what the times count from.
    mutating func writeTimeBaseIfDue(_ event: HAPEvent, clock: CaptureClock) {
        guard !wroteTimeBase, event.packet != nil, let origin = clock.origin else { return }
        wroteTimeBase = true
        output.write(style.paint("times are seconds since the first packet, \(CaptureClock.iso8601(origin))", .dim) + "\n")
    }

    /// One line per audit finding, most severe first; nothing when the audit did not run.
    func writeFindings(_ findings: [Finding]?) {
        for finding in (findings ?? []).sorted(by: { $0.severity > $1.severity }) {
            output.write(FindingText.line(finding, style: style) + "\n")
        }
    }

    /// A closing line: `74 packets; 34 HTTP messages`.
    func footer(_ what: String) -> String {
        let packets = totals.map { EventText.plural($0.packets, "packet") } ?? "no packets"
        return style.paint("\(packets); \(what)", .dim)
    }
}
