import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import Packets
import Reports

/// A recorded capture analysed once: its events, and what they say compared with the truth.
public struct RecordedAnalysis: Sendable {
    public let capture: RecordedCapture
    public let events: [HAPEvent]

    /// Analyses `captures/<name>` with the lines of its key log that `keyLogFilter` keeps (none
    /// when `withKeys` is false); `corruptKeys` flips a bit of every secret so that none fits.
    public init(
        _ name: String, withKeys: Bool = true, keyLogFilter: (String) -> Bool = { _ in true }, corruptKeys: Bool = false,
        configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws {
        capture = RecordedCapture(name)
        var configuration = AnalysisConfiguration()
        if withKeys {
            var lines = try capture.keyLogLines().filter(keyLogFilter)
            if corruptKeys {
                lines = lines.map { line in
                    guard !line.contains("_LTPK"), !line.hasPrefix("SESSION_ENDPOINTS"), let last = line.last, let digit = last.hexDigitValue else { return line }
                    return String(line.dropLast()) + String(digit ^ 1, radix: 16)
                }
            }
            configuration.keyLog = try KeyLog(parsing: lines.joined(separator: "\n"), source: name + ".keylog")
        }
        configure(&configuration)
        events = try capture.events(configuration)
    }

    /// When the capture's first packet was captured: the time reports count from.
    public var origin: Timestamp? {
        for event in events { if case .inputOpened(let input) = event.kind { return input.firstPacketTime } }
        return nil
    }

    /// The payloads of one kind of event, in order.
    public func events<T>(_ extract: (HAPEvent.Kind) -> T?) -> [T] {
        events.compactMap { extract($0.kind) }
    }

    /// The truth's messages per connection (client endpoint) and direction, in the order sent, as
    /// `decodedMessages` keeps them: a chunked message with its body de-chunked.
    public func truthMessages() throws -> [String: [HAPDirection: [[UInt8]]]] {
        try capture.truthMessages().mapValues { directions in directions.mapValues { $0.map(Self.dechunked) } }
    }

    /// A message's head and, when its head says `Transfer-Encoding: chunked`, its chunks' data
    /// joined (RFC 9112 §7.1: `size-in-hex CRLF data CRLF` up to a zero-size chunk); any other
    /// message as it is. The truth's own framing, read independently of the parser under test.
    static func dechunked(_ message: [UInt8]) -> [UInt8] {
        let crlf: [UInt8] = [0x0D, 0x0A]
        guard let headEnd = message.indices.first(where: { message[$0...].starts(with: crlf + crlf) }) else { return message }
        let head = Array(message[..<(headEnd + 4)])
        guard String(decoding: head, as: UTF8.self).lowercased().contains("transfer-encoding: chunked") else { return message }
        var body: [UInt8] = []
        var position = headEnd + 4
        while let lineEnd = message[position...].indices.first(where: { message[$0...].starts(with: crlf) }),
              let size = String(decoding: message[position..<lineEnd], as: UTF8.self).split(separator: ";").first
                  .flatMap({ Int($0, radix: 16) }),
              size > 0, lineEnd + 2 + size <= message.count {
            body += message[(lineEnd + 2)..<(lineEnd + 2 + size)]
            position = lineEnd + 2 + size + 2
            guard position <= message.count else { break }
        }
        return head + body
    }

    /// The messages hapscope recovered, keyed the same way, as the exact bytes on the wire
    /// (head plus de-chunked body when the message was chunked).
    public var decodedMessages: [String: [HAPDirection: [[UInt8]]]] {
        var result: [String: [HAPDirection: [[UInt8]]]] = [:]
        for event in events {
            guard case .httpMessage(let http) = event.kind else { continue }
            let bytes = http.message.rawBytes.map(Array.init) ?? Array(http.message.headBytes) + Array(http.message.body)
            result[http.connection.controller.description, default: [:]][http.direction, default: []].append(bytes)
        }
        return result
    }

    /// The body of the first `/accessories` response: a real attribute database, as a dump.
    public var accessoriesBody: [UInt8]? {
        for event in events {
            if case .httpMessage(let http) = event.kind, http.request?.target == "/accessories" {
                return Array(http.message.body)
            }
        }
        return nil
    }

    /// What `report` writes when fed this capture's events, as the command line feeds it.
    public func render(_ makeReport: (TextBuffer) -> CaptureReport, findings: [Finding]? = nil) -> TextBuffer {
        let buffer = TextBuffer()
        let report = makeReport(buffer)
        for event in events { report.consume(event) }
        report.finish(findings: findings)
        return buffer
    }
}
