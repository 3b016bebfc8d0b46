import HAPEvents
/// Where a report writes its text.
///
/// Reports write whole lines or whole JSON values; the output decides when bytes leave the
/// process. `endOfRecord()` marks the end of one streamed record (an event's lines, one NDJSON
/// object), so that an output watched by a person can show it at once.
public protocol ReportOutput: AnyObject {
    func write(_ text: String)
    /// One streamed record is complete.
    func endOfRecord()
}

/// Collects a report in memory: for tests, and for callers that post-process the text.
public final class TextBuffer: ReportOutput {
    public private(set) var text = ""
    /// How many records were ended, so tests can tell streamed output from a final dump.
    public private(set) var recordCount = 0

    public init() {}

    public func write(_ text: String) {
        self.text += text
    }

    public func endOfRecord() {
        recordCount += 1
    }
}
