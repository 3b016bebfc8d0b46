import HTTP1
import WireParsing

/// What a test sees of a message: everything observable, in a form that compares by value.
struct MessageSnapshot: Equatable, CustomStringConvertible {
    var kind: HTTPMessage.Kind
    var requestLine: HTTPRequestLine?
    var statusLine: HTTPStatusLine?
    var headers: [HTTPHeaderField]
    var trailers: [HTTPHeaderField]
    var body: [UInt8]
    var framing: HTTPBodyFraming
    var contentLength: Int?
    var contentType: HAPContentType?
    var diagnostics: [HTTPDiagnostic]
    var startOffset: Int
    var headerEndOffset: Int
    var endOffset: Int
    var headBytes: [UInt8]
    var rawBytes: [UInt8]?

    init(_ message: HTTPMessage) {
        kind = message.kind
        requestLine = message.requestLine
        statusLine = message.statusLine
        headers = Array(message.headers)
        trailers = Array(message.trailers)
        body = Array(message.body)
        framing = message.framing
        contentLength = message.contentLength
        contentType = message.contentType
        diagnostics = message.diagnostics
        startOffset = message.startOffset
        headerEndOffset = message.headerEndOffset
        endOffset = message.endOffset
        headBytes = Array(message.headBytes)
        rawBytes = message.rawBytes.map(Array.init)
    }

    var description: String { "\(kind) \(startOffset)..<\(endOffset) body \(body.count)" }
}

/// One thing a stream run produced, in order.
enum Observation: Equatable, CustomStringConvertible {
    case message(MessageSnapshot)
    case discarded(HTTPDiscardedBytes)
    /// A thrown error, by code and offset (the wording is free to change).
    case error(DecodeError.Code, offset: Int)

    var description: String {
        switch self {
        case .message(let message): "message(\(message))"
        case .discarded(let discarded): "discarded(\(discarded))"
        case .error(let code, let offset): "error(\(code) at \(offset))"
        }
    }

    var message: MessageSnapshot? {
        if case .message(let message) = self { return message }
        return nil
    }
}

/// What arrives on one direction of a connection.
enum StreamInput {
    case bytes([UInt8])
    case gap(UInt64)
}

/// Runs a parser over `inputs` the way the session layer is meant to: after an error it calls
/// `resume` until that returns, and at the end `finish` until that returns.
func observe(_ inputs: [StreamInput], limits: HTTPLimits = HTTPLimits(), finishing: Bool = true) -> [Observation] {
    var parser = HTTPStreamParser(limits: limits)
    var observations: [Observation] = []
    let handle = { (event: HTTPStreamEvent) in
        switch event {
        case .message(let message): observations.append(.message(MessageSnapshot(message)))
        case .discarded(let discarded): observations.append(.discarded(discarded))
        }
    }
    func attempt(_ call: (inout HTTPStreamParser) throws(DecodeError) -> Void) {
        do {
            try call(&parser)
        } catch {
            observations.append(.error(error.code, offset: error.offset))
            attempt { (parser) throws(DecodeError) in try parser.resume(handle) }
        }
    }
    for input in inputs {
        switch input {
        case .bytes(let bytes):
            attempt { (parser) throws(DecodeError) in
                try bytes.span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in try parser.feed(buffer, handle) }
            }
        case .gap(let count):
            attempt { (parser) throws(DecodeError) in try parser.skip(byteCount: count, handle) }
        }
    }
    if finishing {
        attempt { (parser) throws(DecodeError) in try parser.finish(handle) }
    }
    return observations
}

/// Feeds `bytes` in one piece.
func observe(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits(), finishing: Bool = true) -> [Observation] {
    observe([.bytes(bytes)], limits: limits, finishing: finishing)
}

/// `bytes` cut at each of `cuts`, ascending.
func pieces(of bytes: [UInt8], cutAt cuts: [Int]) -> [StreamInput] {
    var result: [StreamInput] = []
    var start = 0
    for cut in cuts + [bytes.count] {
        result.append(.bytes(Array(bytes[start ..< cut])))
        start = cut
    }
    return result
}

/// `bytes` one byte per piece.
func oneBytePieces(_ bytes: [UInt8]) -> [StreamInput] {
    bytes.map { .bytes([$0]) }
}

/// The messages among `observations`.
func messages(_ observations: [Observation]) -> [MessageSnapshot] {
    observations.compactMap(\.message)
}

/// The stream ranges covered by messages and discarded stretches, in order.
func coveredRanges(_ observations: [Observation]) -> [Range<Int>] {
    observations.compactMap { observation in
        switch observation {
        case .message(let message): message.startOffset ..< message.endOffset
        case .discarded(let discarded): discarded.range
        case .error: nil
        }
    }
}

