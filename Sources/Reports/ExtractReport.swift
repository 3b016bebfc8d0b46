import Foundation
import HAPAnalysis

/// `hapscope extract`: every TLV8 and JSON body written to a directory with its manifest.
public final class ExtractReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let extractor: BodyExtractor
    /// Set when a file could not be written.
    public private(set) var failure: String?

    public init(output: ReportOutput, directory: URL) throws {
        self.output = output
        extractor = try BodyExtractor(directory: directory)
    }

    public func consume(_ event: HAPEvent) {
        extractor.consume(event)
    }

    public func finish(findings: [ReportFinding]?) {
        do {
            try extractor.finish()
        } catch {
            failure = "\(extractor.directory.path): \(error.localizedDescription)"
        }
        failure = extractor.failure ?? failure
        if failure == nil {
            output.write("wrote \(extractor.filesWritten) bodies and manifest.json to \(TerminalText.sanitized(extractor.directory.path))\n")
            output.endOfRecord()
        }
    }
}
