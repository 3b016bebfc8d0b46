import HAPEvents
import Packets

/// A report fed by the event stream: it selects what it shows as events arrive, writes what it
/// can at once and the rest when the input has ended.
///
/// Times in a report count from the first packet of the first input (`clock.origin`, set from
/// the first `inputOpened` event). The driver feeds every event to `consume(_:)` and calls
/// `finish(findings:)` once.
public protocol CaptureReport: HAPEventConsumer {
    var clock: CaptureClock { get set }
    /// Takes one event, the clock already set.
    func take(_ event: HAPEvent)
    /// Writes what remains. `findings` are the audit's, or nil when the audit did not run; the
    /// summary and the streamed reports show them (`tree` and `stats` have no place for them).
    func finish(findings: [Finding]?)
}

extension CaptureReport {
    public func consume(_ event: HAPEvent) {
        if case .inputOpened(let input) = event.kind, clock.origin == nil { clock.origin = input.firstPacketTime }
        take(event)
    }
}

/// A report written whole when the input ends, in the format asked for: text, one JSON document
/// or NDJSON lines, then the end of the record.
protocol EndOfRunReport: CaptureReport {
    var output: ReportOutput { get }
    var settings: ReportSettings { get }
    func writeText(findings: [Finding]?)
    func writeJSON(findings: [Finding]?)
    func writeNDJSON(findings: [Finding]?)
}

extension EndOfRunReport {
    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text: writeText(findings: findings)
        case .json: writeJSON(findings: findings)
        case .ndjson: writeNDJSON(findings: findings)
        }
        output.endOfRecord()
    }
}

/// What every report is told: the format to write and how to color text.
public struct ReportSettings: Sendable {
    public var format: ReportFormat
    public var style: TextStyle

    public init(format: ReportFormat = .text, style: TextStyle = .plain) {
        self.format = format
        self.style = style
    }
}
