import FuzzSupport
import HTTP1
import WireParsing

/// Fuzz target: the incremental HTTP/1.1 and `EVENT/1.0` parser, fed in pieces the input chooses.
///
/// Input layout: one byte of settings (bit 0: tight limits instead of the defaults), one byte
/// whose low four bits count the cut instructions that follow, the instructions, then the stream.
/// The instructions are applied in a cycle until the stream is used up: a value below 0xF0 feeds
/// `value + 1` bytes; 0xF0…0xFF drops `value - 0xF0` stream bytes as a capture gap (0 only
/// resynchronises). Recorded HTTP streams make good seeds behind a two-byte `00 00` prefix.
///
/// Besides not crashing or hanging, the parser must keep its documented promises:
/// - messages and discarded stretches cover every byte fed or skipped exactly once, in order;
/// - recovery ends: `resume` and `finish` return after finitely many errors;
/// - without gaps, the pieces do not matter: the messages are those of feeding the stream whole;
/// - no body exceeds the body limit.
enum HTTPHarness: FuzzHarness {
    static let name = "FuzzHTTP"

    static let tightLimits = HTTPLimits(
        maxStartLineLength: 64, maxHeaderBlockSize: 256, maxHeaderCount: 8, maxBodySize: 1_024, maxChunkSize: 512,
        maxChunkLineLength: 32)

    enum Step {
        case feed(Int)
        case gap(Int)
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let limits = input.bool() ? tightLimits : HTTPLimits()
        let instructionCount = Int(input.byte() & 0x0F)
        let steps = (0 ..< instructionCount).map { _ -> Step in
            let value = Int(input.byte())
            return value >= 0xF0 ? .gap(value - 0xF0) : .feed(value + 1)
        }
        let stream = input.rest()

        let cut = parse(stream, steps: steps, limits: limits)
        let hasGaps = steps.contains { if case .gap = $0 { true } else { false } }
        if !hasGaps, steps.count > 0 {
            let whole = parse(stream, steps: [], limits: limits)
            fuzzInvariant(cut.messages == whole.messages, "cutting the stream changed its messages:\n\(cut.messages)\nvs whole\n\(whole.messages)")
        }
    }

    /// What a consumer sees of one message, to compare two parses.
    struct MessageSummary: Equatable, CustomStringConvertible {
        let range: Range<Int>
        let headerEndOffset: Int
        let kind: HTTPMessage.Kind
        let framing: HTTPBodyFraming
        let body: ArraySlice<UInt8>
        let diagnostics: [HTTPDiagnostic]

        var description: String { "\(kind) \(range) head to \(headerEndOffset) \(framing) body \(body.count) \(diagnostics)" }
    }

    struct Outcome {
        var messages: [MessageSummary] = []
        /// The end of the last message or discarded stretch reported.
        var coveredTo = 0
    }

    private static func parse(_ stream: UnsafeRawBufferPointer, steps: [Step], limits: HTTPLimits) -> Outcome {
        var parser = HTTPStreamParser(limits: limits)
        var outcome = Outcome()
        let handle: (HTTPStreamEvent) -> Void = { event in
            let range: Range<Int>
            switch event {
            case .message(let message):
                range = message.streamRange
                outcome.messages.append(inspect(message, limits: limits))
            case .discarded(let discarded):
                range = discarded.range
                fuzzInvariant(!range.isEmpty, "an empty discarded stretch \(discarded)")
                _ = discarded.description
            }
            fuzzInvariant(range.lowerBound == outcome.coveredTo, "event \(range) does not continue at \(outcome.coveredTo)")
            outcome.coveredTo = range.upperBound
        }
        // Each error is thrown for bytes the parser then holds; a parser that throws more often
        // than there are bytes and calls is not making progress.
        var errorBudget = stream.count + 4
        func recover(_ call: (inout HTTPStreamParser) throws(DecodeError) -> Void) {
            do {
                try call(&parser)
            } catch {
                fuzzCheck(error, within: 0 ... Int.max, layers: [.http])
                while true {
                    errorBudget -= 1
                    fuzzInvariant(errorBudget >= 0, "the parser keeps throwing without consuming its held bytes")
                    do {
                        try parser.resume(handle)
                        break
                    } catch {
                        fuzzCheck(error, within: 0 ... Int.max, layers: [.http])
                    }
                }
            }
        }

        // Steps that only resynchronise make no progress: without a feed the rest goes in whole.
        let steps = steps.contains { if case .feed = $0 { true } else { false } } ? steps : steps + [.feed(stream.count)]
        var position = 0
        var stepIndex = 0
        while position < stream.count {
            let step = steps[stepIndex % steps.count]
            stepIndex += 1
            errorBudget += 2
            switch step {
            case .feed(let count):
                let piece = UnsafeRawBufferPointer(rebasing: stream[position ..< min(position + count, stream.count)])
                position += piece.count
                recover { parser throws(DecodeError) in try parser.feed(piece, handle) }
            case .gap(let count):
                let skipped = min(count, stream.count - position)
                position += skipped
                recover { parser throws(DecodeError) in try parser.skip(byteCount: UInt64(skipped), handle) }
            }
        }
        while true {
            errorBudget -= 1
            fuzzInvariant(errorBudget >= 0, "finish keeps throwing")
            do {
                try parser.finish(handle)
                break
            } catch {
                fuzzCheck(error, within: 0 ... Int.max, layers: [.http])
            }
        }
        fuzzInvariant(!parser.isHoldingInput, "the parser holds input after finishing")
        fuzzInvariant(outcome.coveredTo == parser.streamOffset, "events cover \(outcome.coveredTo) of \(parser.streamOffset) bytes")
        return outcome
    }

    /// Reads every part of a message a report would read, and checks its offsets.
    private static func inspect(_ message: HTTPMessage, limits: HTTPLimits) -> MessageSummary {
        fuzzInvariant(
            message.startOffset <= message.headerEndOffset && message.headerEndOffset <= message.endOffset,
            "message offsets out of order: \(message.startOffset) \(message.headerEndOffset) \(message.endOffset)")
        fuzzInvariant(message.body.count <= limits.maxBodySize, "a body of \(message.body.count) bytes passed the limit")
        fuzzInvariant(message.headBytes.count == message.headerEndOffset - message.startOffset, "head bytes do not match the head offsets")
        if let raw = message.rawBytes {
            fuzzInvariant(raw.count == message.endOffset - message.startOffset, "raw bytes do not match the message offsets")
        }
        for headers in [message.headers, message.trailers] {
            for field in headers { _ = field.description }
        }
        _ = message.requestLine
        _ = message.statusLine
        _ = message.contentType?.description
        if let target = message.hapRequestTarget {
            _ = target.characteristicQuery?.ids.count
            for diagnostic in target.diagnostics { _ = diagnostic.description }
        }
        for diagnostic in message.diagnostics { _ = diagnostic.description }
        _ = message.description
        return MessageSummary(
            range: message.streamRange, headerEndOffset: message.headerEndOffset, kind: message.kind,
            framing: message.framing, body: message.body, diagnostics: message.diagnostics)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    HTTPHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension HTTPHarness {}
#endif
