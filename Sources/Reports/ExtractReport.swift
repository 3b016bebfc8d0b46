import HAPEvents

/// What `hapscope extract` says after writing the bodies: how many, and where.
public final class ExtractReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let directory: String
    private let result: () -> (filesWritten: Int, failure: String?)

    /// - Parameter result: what the extractor wrote, and the file it could not write, read when
    ///   the report ends; a failure is the caller's to report.
    public init(output: ReportOutput, directory: String, result: @escaping () -> (filesWritten: Int, failure: String?)) {
        self.output = output
        self.directory = directory
        self.result = result
    }

    public func take(_ event: HAPEvent) {}

    public func finish(findings: [Finding]?) {
        let (filesWritten, failure) = result()
        guard failure == nil else { return }
        output.write("wrote \(filesWritten) bodies and manifest.json to \(TerminalText.sanitized(directory))\n")
        output.endOfRecord()
    }
}
