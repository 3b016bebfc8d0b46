import WireParsing

/// Finds the end of a header block or a trailer section — the first empty line — across any
/// number of pieces, and enforces the size, start-line and count limits while the block is
/// still arriving, so that a block that never ends fails once it outgrows its limit.
///
/// The scanner only looks for line feeds (eight bytes per step); the block is parsed once it
/// is complete.
struct HTTPHeaderBlockScanner {
    /// Whether the block begins with a start line, which is not a field and has its own limit.
    let hasStartLine: Bool
    /// Bytes of the block examined so far.
    private(set) var scannedCount = 0
    /// Lines completed so far, the start line included.
    private(set) var lineCount = 0
    /// Block-relative offset of the first byte of the line being scanned.
    private var lineStart = 0
    /// The first byte of the line being scanned, once it has arrived in an earlier piece.
    private var lineFirstByte: UInt8 = 0

    init(hasStartLine: Bool) {
        self.hasStartLine = hasStartLine
    }

    /// A scanner whose block begins with `prefix`, bytes without a line feed that arrived
    /// before the piece scanning continues with.
    init(hasStartLine: Bool, prefix: [UInt8]) {
        self.hasStartLine = hasStartLine
        scannedCount = prefix.count
        lineFirstByte = prefix.first ?? 0
    }

    /// The number of field lines among the completed lines.
    var fieldLineCount: Int { hasStartLine ? max(lineCount - 1, 0) : lineCount }

    /// How far a scan got.
    enum Progress: Equatable {
        /// The window ended inside the block.
        case needsMore
        /// The start line ended just before window index `end`; scanning resumes there, so that
        /// the start line is judged at the same point however the stream is split.
        case startLineComplete(end: Int)
        /// The empty line ending the block ended just before window index `end`.
        case blockComplete(end: Int)
    }

    /// Scans `window[index...]`, the continuation of a block whose first byte is at absolute
    /// offset `blockOffset`.
    mutating func scan(
        _ window: UnsafeRawBufferPointer, from index: Int, blockOffset: Int, limits: HTTPLimits
    ) throws(DecodeError) -> Progress {
        let entryCount = scannedCount
        // Block-relative offset r sits at window index `index + r - entryCount`.
        var searchStart = index
        while true {
            // A line feed at block-relative offset r makes the block (or start line) r + 1 bytes
            // long, so the search stops before the limit instead of buffering past it.
            var bound = max(limits.maxHeaderBlockSize, 0)
            var limitDescription = "a header block of at most \(bound) bytes"
            if hasStartLine, lineCount == 0, limits.maxStartLineLength < bound {
                bound = max(limits.maxStartLineLength, 0)
                limitDescription = "a start line of at most \(bound) bytes"
            }
            let boundIndex = index + (bound - entryCount)
            let searchEnd = min(window.count, max(searchStart, boundIndex))
            guard let lineFeed = ASCII.firstIndex(of: ASCII.lineFeed, in: window, from: searchStart, to: searchEnd) else {
                if searchEnd < window.count {
                    throw DecodeError(.limitExceeded, layer: .http, offset: blockOffset + bound, expected: limitDescription)
                }
                let lineStartIndex = index + (lineStart - entryCount)
                if lineStart >= entryCount, lineStartIndex < window.count {
                    lineFirstByte = window[lineStartIndex]
                }
                scannedCount = entryCount + (window.count - index)
                return .needsMore
            }
            let lineFeedOffset = entryCount + (lineFeed - index)
            let lineLength = lineFeedOffset - lineStart
            let isEmptyLine: Bool
            switch lineLength {
            case 0:
                isEmptyLine = true
            case 1:
                let first = lineStart >= entryCount ? window[index + (lineStart - entryCount)] : lineFirstByte
                isEmptyLine = first == ASCII.carriageReturn
            default:
                isEmptyLine = false
            }
            if isEmptyLine, !(hasStartLine && lineCount == 0) {
                scannedCount = lineFeedOffset + 1
                return .blockComplete(end: lineFeed + 1)
            }
            lineCount += 1
            if fieldLineCount > limits.maxHeaderCount {
                throw DecodeError(.limitExceeded, layer: .http, offset: blockOffset + lineStart, expected: "at most \(limits.maxHeaderCount) header fields")
            }
            lineStart = lineFeedOffset + 1
            if hasStartLine, lineCount == 1 {
                scannedCount = lineFeedOffset + 1
                return .startLineComplete(end: lineFeed + 1)
            }
            searchStart = lineFeed + 1
        }
    }
}
