import HAPAnalysis
import Packets

/// A report fed by the event stream: it writes what it can as events arrive and the rest when
/// the input has ended.
///
/// The driver sets `clock.origin` to the first packet's time before that packet is analysed,
/// feeds every event to `consume(_:)`, and calls `finish(findings:)` once.
public protocol CaptureReport: HAPEventConsumer {
    /// Times in the report count from `clock.origin`.
    var clock: CaptureClock { get set }
    /// Writes what remains. `findings` are the audit's, or nil when the audit did not run; the
    /// summary and the streamed reports show them (`tree` and `stats` have no place for them).
    func finish(findings: [ReportFinding]?)
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
