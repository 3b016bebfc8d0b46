import WireParsing

/// Decodes one direction of a HAP connection — plain HTTP/1.1 before Pair Verify, decrypted
/// frames after it — into messages, whatever pieces the bytes arrive in.
///
/// Feeding a stream one byte at a time gives exactly the messages that feeding it whole gives.
/// Bytes are copied once, into the message that owns them; a piece is only borrowed for the
/// call that hands it over.
///
/// Every byte fed or skipped ends up in exactly one reported message or discarded stretch
/// (`HTTPStreamEvent`), so a consumer can account for the whole stream.
///
/// ## Errors and recovery
/// Malformed input throws `DecodeError` (layer `http`) whose offset counts every byte of the
/// direction fed or skipped before it. The message the error abandoned is reported as
/// `.discarded(.failedMessage)` before the throw, and the parser keeps the rest of the piece.
/// The next call — `resume`, `feed`, `skip` or `finish` — first resynchronises on those bytes:
/// it passes over them until a line starts with `HTTP/1.x `, `EVENT/1.0 ` or an upper-case
/// method followed by ` /`, and parses from there. A call may throw again for a later error;
/// calling `resume` until it returns delivers everything in the piece that failed:
///
/// ```swift
/// do {
///     try parser.feed(bytes, handle)
/// } catch {
///     report(error)
///     while true {
///         do { try parser.resume(handle); break } catch { report(error) }
///     }
/// }
/// ```
public struct HTTPStreamParser: Sendable {
    /// The bounds every message is held to.
    public let limits: HTTPLimits
    /// Bytes fed plus bytes skipped: the stream offset the next fed byte will have.
    public private(set) var streamOffset = 0

    private var state = State.betweenMessages
    private var message = MessageInProgress()
    /// The discarded stretch being extended, reported once it ends.
    private var discard: HTTPDiscardedBytes?
    /// While resynchronising: a line start at the end of a piece, too short to judge.
    private var candidate: [UInt8] = []
    private var candidateOffset = 0
    /// Input not yet parsed because an error interrupted it, in stream order.
    private var pending: [PendingInput] = []

    private enum State {
        /// At a message boundary; empty lines are passed over.
        case betweenMessages
        case head
        case fixedBody(remaining: Int)
        case chunkSizeLine
        case chunkData(remaining: Int)
        /// After a chunk's data, where CR LF must follow.
        case chunkDataEnd(sawCarriageReturn: Bool)
        case trailers
        case untilClose
        case resynchronising(atLineStart: Bool)
    }

    private enum PendingInput {
        case bytes([UInt8], offset: Int)
        case gap(Int, offset: Int)
    }

    private struct MessageInProgress {
        /// The header block, then the de-chunked body, then the trailer section. While a
        /// block spans pieces, storage holds what of it arrived in earlier pieces.
        var storage: [UInt8] = []
        var startOffset = 0
        /// The header block or trailer section being read, its absolute offset and the
        /// storage index of its first byte.
        var reader = HTTPHeadReader()
        var blockOffset = 0
        var blockStorageStart = 0
        /// The header block, once complete.
        var head: HTTPHead?
        var headerEndOffset = 0
        var bodyCount = 0
        var chunkCount = 0
        var chunkSizeLine = HTTPChunkSizeLine()
        /// Storage indices of the trailer section, once read.
        var trailerBlock = 0 ..< 0
        var diagnostics = HTTPDiagnostics()

        /// Starts over, in place, with a message whose first bytes, without a line feed, are
        /// `prefix`. Assigning a new value would move the whole struct for every message.
        mutating func reset(startOffset: Int, prefix: [UInt8]) {
            storage = prefix
            self.startOffset = startOffset
            reader = HTTPHeadReader()
            blockOffset = startOffset
            blockStorageStart = 0
            head = nil
            headerEndOffset = 0
            bodyCount = 0
            chunkCount = 0
            chunkSizeLine = HTTPChunkSizeLine()
            trailerBlock = 0 ..< 0
            diagnostics = HTTPDiagnostics()
        }
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Whether bytes that followed an error wait to be parsed by the next call.
    public var isHoldingInput: Bool { !pending.isEmpty }

    // MARK: Input

    /// Parses the next bytes of the stream, reporting each complete message and each
    /// discarded stretch to `handle` in stream order. `bytes` is only read during the call.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (HTTPStreamEvent) -> Void) throws(DecodeError) {
        let offset = streamOffset
        streamOffset += bytes.count
        guard pending.isEmpty else {
            pending.append(.bytes(Array(bytes), offset: offset))
            try drain(handle)
            return
        }
        try process(bytes, at: offset, handle)
    }

    /// Records that `byteCount` bytes of the stream will never arrive — a capture gap — and
    /// resynchronises after them. The message in progress, if any, is reported as
    /// `.discarded(.incompleteMessage)` and the gap as `.discarded(.missingBytes)`.
    ///
    /// With a count of 0 it only resynchronises: for a stream picked up in the middle.
    public mutating func skip(byteCount: UInt64, _ handle: (HTTPStreamEvent) -> Void) throws(DecodeError) {
        let count = Int(clamping: byteCount)
        let offset = streamOffset
        streamOffset = offset.addingReportingOverflow(count).overflow ? Int.max : offset + count
        guard pending.isEmpty else {
            pending.append(.gap(streamOffset - offset, offset: offset))
            try drain(handle)
            return
        }
        applyGap(streamOffset - offset, at: offset, handle)
    }

    /// Parses the bytes held back by an error. Throws for the next error among them, if any;
    /// call it until it returns.
    public mutating func resume(_ handle: (HTTPStreamEvent) -> Void) throws(DecodeError) {
        try drain(handle)
    }

    /// Ends the stream: a response framed by the connection's end is delivered; a message cut
    /// short is reported as `.discarded(.incompleteMessage)` and throws `.truncated`. Throws
    /// first for any error among held bytes; call it until it returns.
    public mutating func finish(_ handle: (HTTPStreamEvent) -> Void) throws(DecodeError) {
        try drain(handle)
        let end = streamOffset
        switch state {
        case .untilClose:
            finishMessage(end: end, handle)
        case .head, .fixedBody, .chunkSizeLine, .chunkData, .chunkDataEnd, .trailers:
            let start = message.startOffset
            handle(.discarded(HTTPDiscardedBytes(range: start ..< end, reason: .incompleteMessage)))
            message = MessageInProgress()
            state = .betweenMessages
            throw DecodeError(.truncated, layer: .http, offset: end, expected: "the rest of the message that began at byte \(start)")
        case .betweenMessages, .resynchronising:
            break
        }
        closeDiscard(at: end, handle)
        candidate = []
        state = .betweenMessages
    }

    private mutating func drain(_ handle: (HTTPStreamEvent) -> Void) throws(DecodeError) {
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .bytes(let bytes, let offset):
                try bytes.span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
                    try process(buffer, at: offset, handle)
                }
            case .gap(let count, let offset):
                applyGap(count, at: offset, handle)
            }
        }
    }

    private mutating func process(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, _ handle: (HTTPStreamEvent) -> Void
    ) throws(DecodeError) {
        var index = 0
        do {
            while index < window.count {
                index = try step(window, at: windowOffset, from: index, handle)
            }
        } catch {
            abandonMessage(after: error, window: window, at: windowOffset, handle)
            throw error
        }
    }

    /// Advances through `window` from `index` in the current state; returns where it stopped.
    private mutating func step(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, from index: Int, _ handle: (HTTPStreamEvent) -> Void
    ) throws(DecodeError) -> Int {
        switch state {
        case .betweenMessages:
            return try startMessage(window, at: windowOffset, from: index, handle)
        case .head, .trailers:
            return try readBlock(window, at: windowOffset, from: index, handle)
        case .fixedBody(let remaining):
            let count = min(remaining, window.count - index)
            store(window, index ..< index + count)
            if count == remaining {
                finishMessage(end: windowOffset + index + count, handle)
            } else {
                state = .fixedBody(remaining: remaining - count)
            }
            return index + count
        case .chunkSizeLine:
            return try continueChunkSizeLine(window, at: windowOffset, from: index)
        case .chunkData(let remaining):
            let count = min(remaining, window.count - index)
            store(window, index ..< index + count)
            state = count == remaining ? .chunkDataEnd(sawCarriageReturn: false) : .chunkData(remaining: remaining - count)
            return index + count
        case .chunkDataEnd(let sawCarriageReturn):
            // RFC 9112 §7.1: chunk-data CRLF.
            let byte = window[index]
            if !sawCarriageReturn, byte == ASCII.carriageReturn {
                state = .chunkDataEnd(sawCarriageReturn: true)
            } else if byte == ASCII.lineFeed {
                if !sawCarriageReturn { message.diagnostics.note(.bareLineFeed, offset: windowOffset + index) }
                state = .chunkSizeLine
            } else {
                throw DecodeError(
                    .malformed, layer: .http, offset: windowOffset + index,
                    expected: sawCarriageReturn ? "LF after CR (RFC 9112 §2.2)" : "CR LF after the chunk data (RFC 9112 §7.1)")
            }
            return index + 1
        case .untilClose:
            let count = window.count - index
            guard count <= limits.maxBodySize - message.bodyCount else {
                throw DecodeError(
                    .limitExceeded, layer: .http, offset: message.headerEndOffset + limits.maxBodySize,
                    expected: "a body of at most \(limits.maxBodySize) bytes", limit: .httpBody)
            }
            store(window, index ..< window.count)
            return window.count
        case .resynchronising(let atLineStart):
            return resynchronise(window, at: windowOffset, from: index, atLineStart: atLineStart, handle)
        }
    }

    // MARK: Header block

    private mutating func startMessage(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, from start: Int, _ handle: (HTTPStreamEvent) -> Void
    ) throws(DecodeError) -> Int {
        var index = start
        // RFC 9112 §2.2: empty lines before a start line are ignored.
        while index < window.count, window[index] == ASCII.carriageReturn || window[index] == ASCII.lineFeed {
            index += 1
        }
        if index > start { openDiscard(.emptyLines, at: windowOffset + start, handle) }
        guard index < window.count else { return index }
        closeDiscard(at: windowOffset + index, handle)
        beginMessage(at: windowOffset + index, prefix: [])
        // Methods, `HTTP/` and `EVENT/` all start with a token character; anything else is not
        // a message, and failing here spares buffering a block of it.
        guard ASCII.isTokenCharacter(window[index]) else {
            throw DecodeError(.malformed, layer: .http, offset: windowOffset + index, expected: "a method token or HTTP/1.x at the start of a message")
        }
        return index
    }

    /// Starts a message at `offset` whose first bytes, without a line feed, are `prefix`.
    private mutating func beginMessage(at offset: Int, prefix: [UInt8]) {
        message.reset(startOffset: offset, prefix: prefix)
        state = .head
    }

    /// Reads the lines of the header block or trailer section being received, each as soon as
    /// its line feed is in: in place when the line lies in `window`, from storage when it began
    /// in an earlier piece.
    private mutating func readBlock(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, from index: Int, _ handle: (HTTPStreamEvent) -> Void
    ) throws(DecodeError) -> Int {
        // Storage holds the block's bytes that came before `index`; window bytes from
        // `unstoredStart` on are not stored yet.
        let storedCount = message.storage.count - message.blockStorageStart
        var unstoredStart = index
        var lineStart = index - (storedCount - message.reader.length)
        while true {
            // A line feed at block-relative offset r makes the block (or the start line) r + 1
            // bytes long: the search stops at the limit instead of buffering past it.
            let boundIsStartLine = message.reader.awaitsStartLine && limits.maxStartLineLength < limits.maxHeaderBlockSize
            let bound = boundIsStartLine ? limits.maxStartLineLength : limits.maxHeaderBlockSize
            // Bytes before `index` are stored and hold no line feed.
            let searchStart = max(lineStart, index)
            let searchEnd = min(window.count, max(searchStart, index + (bound - storedCount)))
            guard let lineFeed = ASCII.firstIndex(of: ASCII.lineFeed, in: window, from: searchStart, to: searchEnd) else {
                if searchEnd < window.count {
                    throw DecodeError(
                        .limitExceeded, layer: .http, offset: message.blockOffset + bound,
                        expected: "a \(boundIsStartLine ? "start line" : "header block") of at most \(bound) bytes",
                        limit: boundIsStartLine ? .httpStartLine : .httpHeaderBlock)
                }
                store(window, unstoredStart ..< window.count)
                return window.count
            }
            let lineOffset = message.blockOffset + message.reader.length
            let line: HTTPHeadReader.Line
            if lineStart >= unstoredStart {
                line = try message.reader.read(
                    line: HTTPText(buffer: UnsafeRawBufferPointer(rebasing: window[lineStart ... lineFeed]), baseOffset: lineOffset),
                    limits: limits, diagnostics: &message.diagnostics)
            } else {
                store(window, unstoredStart ..< lineFeed + 1)
                unstoredStart = lineFeed + 1
                line = try readStoredLine(at: lineOffset)
            }
            lineStart = lineFeed + 1
            switch line {
            case .startOrField:
                continue
            case .endOfHead(let startLine):
                return try completeHead(startLine, window, at: windowOffset, end: lineStart, unstoredStart: unstoredStart, handle)
            case .endOfTrailers:
                store(window, unstoredStart ..< lineStart)
                message.trailerBlock = message.blockStorageStart ..< message.storage.count
                finishMessage(end: windowOffset + lineStart, handle)
                return lineStart
            }
        }
    }

    /// Reads the line at the end of storage, which began in an earlier piece.
    private mutating func readStoredLine(at lineOffset: Int) throws(DecodeError) -> HTTPHeadReader.Line {
        var reader = message.reader
        var diagnostics = message.diagnostics
        let limits = limits
        let lineStorageStart = message.blockStorageStart + reader.length
        let line = try message.storage.span.bytes.extracting(lineStorageStart...).withUnsafeBytes { (buffer) throws(DecodeError) in
            try reader.read(line: HTTPText(buffer: buffer, baseOffset: lineOffset), limits: limits, diagnostics: &diagnostics)
        }
        message.reader = reader
        message.diagnostics = diagnostics
        return line
    }

    /// Sets up the body of the message whose header block ended just before `window[end]`.
    /// A message that arrived whole in `window` is copied once and delivered at once.
    private mutating func completeHead(
        _ startLine: HTTPStartLine, _ window: UnsafeRawBufferPointer, at windowOffset: Int, end: Int,
        unstoredStart: Int, _ handle: (HTTPStreamEvent) -> Void
    ) throws(DecodeError) -> Int {
        let framing = try message.reader.framing(
            of: startLine, blockOffset: message.startOffset, limits: limits, diagnostics: &message.diagnostics)
        let head = HTTPHead(
            startLine: startLine, fieldsStart: message.reader.fieldsStart, length: message.reader.length,
            contentLength: message.reader.contentLength?.value, framing: framing)
        message.headerEndOffset = windowOffset + end
        let available = window.count - end
        if message.storage.isEmpty {
            let headStart = end - head.length
            switch framing {
            case .none, .contentLength(0):
                emit(Array(UnsafeRawBufferPointer(rebasing: window[headStart ..< end])), head: head, end: windowOffset + end, handle)
                return end
            case .contentLength(let length) where length <= available:
                let bytes = Array(UnsafeRawBufferPointer(rebasing: window[headStart ..< end + length]))
                message.bodyCount = length
                emit(bytes, head: head, end: windowOffset + end + length, handle)
                return end + length
            case .contentLength, .chunked, .untilClose:
                break
            }
            message.storage.reserveCapacity(head.length + initialBodyCapacity(framing, available: available))
            store(window, headStart ..< end)
        } else {
            store(window, unstoredStart ..< end)
            message.storage.reserveCapacity(head.length + initialBodyCapacity(framing, available: available))
        }
        message.head = head
        switch framing {
        case .none, .contentLength(0):
            finishMessage(end: windowOffset + end, handle)
        case .contentLength(let length):
            state = .fixedBody(remaining: length)
        case .chunked:
            message.reader = HTTPHeadReader(trailersOf: startLine.kind)
            state = .chunkSizeLine
        case .untilClose:
            state = .untilClose
        }
        return end
    }

    /// Storage to reserve for a body: all of it when it is already here, otherwise what is here
    /// (or a modest start), so that a large announced length commits no memory before its
    /// bytes arrive.
    private func initialBodyCapacity(_ framing: HTTPHeadReader.Framing, available: Int) -> Int {
        switch framing {
        case .none: 0
        case .contentLength(let length): length <= available ? length : min(length, max(available, 16 * 1024))
        case .chunked, .untilClose: min(available, limits.maxBodySize)
        }
    }

    // MARK: Chunked body

    private mutating func continueChunkSizeLine(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, from index: Int
    ) throws(DecodeError) -> Int {
        guard let line = try message.chunkSizeLine.consume(
            window, from: index, windowOffset: windowOffset, limits: limits, bodySize: message.bodyCount)
        else { return window.count }
        if let offset = line.bareLineFeedOffset { message.diagnostics.note(.bareLineFeed, offset: offset) }
        message.chunkSizeLine = HTTPChunkSizeLine()
        if line.size == 0 {
            // RFC 9112 §7.1.2: the last chunk is followed by the trailer section.
            state = .trailers
            message.blockOffset = windowOffset + line.end
            message.blockStorageStart = message.storage.count
        } else {
            message.chunkCount += 1
            state = .chunkData(remaining: line.size)
        }
        return line.end
    }

    // MARK: Message boundaries

    /// Copies `window[range]` into the message; body bytes count towards its body.
    private mutating func store(_ window: UnsafeRawBufferPointer, _ range: Range<Int>) {
        message.storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[range]))
        switch state {
        case .fixedBody, .chunkData, .untilClose: message.bodyCount += range.count
        default: break
        }
    }

    /// Hands over the message whose body just ended; its storage is moved out, not copied.
    private mutating func finishMessage(end: Int, _ handle: (HTTPStreamEvent) -> Void) {
        guard let head = message.head.take() else { return }
        var storage: [UInt8] = []
        swap(&storage, &message.storage)
        emit(storage, head: head, end: end, handle)
    }

    private mutating func emit(_ storage: [UInt8], head: HTTPHead, end: Int, _ handle: (HTTPStreamEvent) -> Void) {
        state = .betweenMessages
        let framing: HTTPBodyFraming = switch head.framing {
        case .none: .none
        case .contentLength(let length): .contentLength(length)
        case .chunked: .chunked(chunkCount: message.chunkCount)
        case .untilClose: .untilClose
        }
        handle(.message(HTTPMessage(
            storage: storage, head: head, startOffset: message.startOffset, trailerBlock: message.trailerBlock,
            trailerOffset: message.blockOffset, framing: framing, bodyCount: message.bodyCount, endOffset: end,
            diagnostics: message.diagnostics.all)))
    }

    // MARK: Gaps, errors and resynchronisation

    private mutating func applyGap(_ count: Int, at offset: Int, _ handle: (HTTPStreamEvent) -> Void) {
        closeDiscard(at: offset, handle)
        switch state {
        case .betweenMessages, .resynchronising:
            break
        case .head, .fixedBody, .chunkSizeLine, .chunkData, .chunkDataEnd, .trailers, .untilClose:
            handle(.discarded(HTTPDiscardedBytes(range: message.startOffset ..< offset, reason: .incompleteMessage)))
            message = MessageInProgress()
        }
        if count > 0 {
            handle(.discarded(HTTPDiscardedBytes(range: offset ..< offset + count, reason: .missingBytes)))
        }
        candidate = []
        // Nothing is known about the byte before the first one after a gap, so it may start a
        // line: a lost segment often ends at a message boundary.
        state = .resynchronising(atLineStart: true)
        openDiscard(.unrecognisedBytes, at: offset + count, handle)
    }

    /// Reports the message `error` abandoned, keeps the bytes after the point where
    /// resynchronisation will begin, and enters resynchronisation.
    private mutating func abandonMessage(
        after error: DecodeError, window: UnsafeRawBufferPointer, at windowOffset: Int, _ handle: (HTTPStreamEvent) -> Void
    ) {
        let windowEnd = windowOffset + window.count
        let inBlock: Bool = switch state {
        case .head, .trailers: true
        default: false
        }
        // The block being scanned is held contiguously: a prefix in storage, the rest in the window.
        let storedBlockEnd = inBlock ? message.blockOffset + (message.storage.count - message.blockStorageStart) : windowOffset
        func byte(at offset: Int) -> UInt8? {
            if inBlock, offset >= message.blockOffset, offset < storedBlockEnd {
                return message.storage[message.blockStorageStart + (offset - message.blockOffset)]
            }
            return offset >= windowOffset && offset < windowEnd ? window[offset - windowOffset] : nil
        }

        var resume = min(max(error.offset, message.startOffset + 1), windowEnd)
        var atLineStart: Bool
        if inBlock {
            // Resume at the start of the offending line: when a sender drops the empty line
            // ending a block, the next message's start line is the line that fails.
            var lineStart = min(error.offset, windowEnd)
            while lineStart > message.blockOffset, let previous = byte(at: lineStart - 1), previous != ASCII.lineFeed {
                lineStart -= 1
            }
            resume = min(max(lineStart, message.startOffset + 1), windowEnd)
            atLineStart = resume == lineStart
        } else {
            atLineStart = byte(at: resume - 1) == ASCII.lineFeed
        }
        handle(.discarded(HTTPDiscardedBytes(range: message.startOffset ..< resume, reason: .failedMessage)))

        var held: [UInt8] = []
        if resume < storedBlockEnd {
            held.append(contentsOf: message.storage[(message.blockStorageStart + (resume - message.blockOffset))...])
        }
        let windowStart = min(max(max(resume, storedBlockEnd) - windowOffset, 0), window.count)
        held.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[windowStart...]))
        if !held.isEmpty {
            pending.insert(.bytes(held, offset: resume), at: 0)
        }

        message = MessageInProgress()
        candidate = []
        state = .resynchronising(atLineStart: atLineStart)
        openDiscard(.unrecognisedBytes, at: resume, handle)
    }

    /// Passes over bytes until a line starts like a message, then starts that message.
    private mutating func resynchronise(
        _ window: UnsafeRawBufferPointer, at windowOffset: Int, from start: Int, atLineStart: Bool,
        _ handle: (HTTPStreamEvent) -> Void
    ) -> Int {
        var index = start
        var atLineStart = atLineStart
        if !candidate.isEmpty {
            let probeEnd = min(window.count, index + HTTPStartLineCandidate.maxLength)
            var probe = candidate
            probe.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[index ..< probeEnd]))
            switch probe.span.bytes.withUnsafeBytes({ HTTPStartLineCandidate.classify($0, from: 0) }) {
            case .plausible:
                let prefix = candidate
                candidate = []
                closeDiscard(at: candidateOffset, handle)
                beginMessage(at: candidateOffset, prefix: prefix)
                return index
            case .undecided:
                candidate = probe
                return probeEnd
            case .implausible:
                candidate = []
                atLineStart = false
            }
        }
        while index < window.count {
            if atLineStart {
                switch HTTPStartLineCandidate.classify(window, from: index) {
                case .plausible:
                    closeDiscard(at: windowOffset + index, handle)
                    beginMessage(at: windowOffset + index, prefix: [])
                    return index
                case .undecided:
                    candidate = Array(UnsafeRawBufferPointer(rebasing: window[index...]))
                    candidateOffset = windowOffset + index
                    state = .resynchronising(atLineStart: false)
                    return window.count
                case .implausible:
                    break
                }
            }
            guard let lineFeed = ASCII.firstIndex(of: ASCII.lineFeed, in: window, from: index, to: window.count) else {
                state = .resynchronising(atLineStart: false)
                return window.count
            }
            index = lineFeed + 1
            atLineStart = true
        }
        state = .resynchronising(atLineStart: atLineStart)
        return index
    }

    private mutating func openDiscard(_ reason: HTTPDiscardedBytes.Reason, at offset: Int, _ handle: (HTTPStreamEvent) -> Void) {
        if discard?.reason == reason { return }
        closeDiscard(at: offset, handle)
        discard = HTTPDiscardedBytes(range: offset ..< offset, reason: reason)
    }

    private mutating func closeDiscard(at end: Int, _ handle: (HTTPStreamEvent) -> Void) {
        if let discard, end > discard.range.lowerBound {
            handle(.discarded(HTTPDiscardedBytes(range: discard.range.lowerBound ..< end, reason: discard.reason)))
        }
        discard = nil
    }
}
