import HAPEvents

/// The HTML report as a `CaptureReport`: `--format html` for `summary` and `audit`.
public final class HTMLCaptureReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let builder: HTMLReportBuilder
    private let title: String

    /// - Parameter title: the document's title, usually the capture's file name.
    public init(output: ReportOutput, title: String, limits: HTMLReportLimits = HTMLReportLimits()) {
        self.output = output
        self.title = title
        builder = HTMLReportBuilder(limits: limits)
    }

    public func take(_ event: HAPEvent) {
        builder.consume(event)
    }

    public func finish(findings: [Finding]?) {
        output.write(builder.render(findings: findings ?? [], title: title))
        output.endOfRecord()
    }
}
