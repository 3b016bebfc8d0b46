import HAPEvents
import HTTP1
import TLV8
import WireParsing

/// `hapscope http`: every HAP HTTP message, decrypted where the key log allows, as it is
/// reassembled. Text shows one line per message with the connection's opening, its switch to
/// encryption and why a session could not be read; `verbose` adds headers and bodies (pairing
/// bodies decoded as TLV8). JSON and NDJSON carry `http-message` events (docs/json.md).
public final class HTTPReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private let verbose: Bool
    private let stream: EventStreamWriter
    private var context: TextContext
    private var messageCount = 0
    /// Bodies longer than this are cut in verbose text, with the number of bytes left out.
    static let verboseBodyLimit = 4096

    public init(output: ReportOutput, settings: ReportSettings, verbose: Bool = false) {
        self.output = output
        self.settings = settings
        self.verbose = verbose
        stream = EventStreamWriter(output: output, format: settings.format, command: "http")
        context = TextContext(output: output, style: settings.style)
    }

    public func take(_ event: HAPEvent) {
        guard settings.format == .text else {
            if stream.noteContext(event, clock: clock) { return }
            if case .httpMessage = event.kind { stream.write(event, clock: clock) }
            return
        }
        if context.handle(event, clock: clock) { return }
        let style = settings.style
        switch event.kind {
        case .httpMessage(let http):
            messageCount += 1
            writeMessage(http, packet: event)
        case .connectionOpened, .sessionStarted, .sessionProblem, .connectionClosed:
            output.write(EventText.line(event, clock: clock, style: style) + "\n")
        default:
            return
        }
        output.endOfRecord()
    }

    private func writeMessage(_ http: HTTPMessageEvent, packet event: HAPEvent) {
        let style = settings.style
        let message = http.message
        var line = EventText.prefix(event.packet, clock: clock, style: style) + "  "
        line += style.paint(EventText.padRight("#\(http.connection.id) \(EventText.arrow(http.direction))", 12),
                            http.direction == .controllerToAccessory ? .controller : .accessory)
        line += TerminalText.sanitized(HTTPText.startLine(message))
        if !message.body.isEmpty {
            line += style.paint("  \(message.body.count) bytes" + (message.contentType.map { " \($0.mediaType)" } ?? ""), .dim)
        }
        if http.encrypted { line += style.paint("  [decrypted]", .good) }
        if let request = http.request, let seconds = CaptureClock.seconds(from: request.packet.timestamp, to: http.lastPacket.timestamp) {
            line += style.paint("  answers #\(request.packet.number) after \(CaptureClock.durationText(seconds))", .dim)
        }
        output.write(line + "\n")
        guard verbose else { return }
        let indent = String(repeating: " ", count: 34)
        for field in message.headers {
            output.write(indent + TerminalText.sanitized(field.name) + ": " + TerminalText.sanitized(field.value) + "\n")
        }
        for diagnostic in message.diagnostics {
            output.write(indent + style.paint("! \(diagnostic)", .warning) + "\n")
        }
        for bodyLine in bodyLines(message) {
            output.write(indent + "  " + bodyLine + "\n")
        }
    }

    /// The body in lines: pairing TLV8 decoded item by item, text as text, anything else as a hex dump.
    private func bodyLines(_ message: HTTPMessage) -> [String] {
        let body = message.body
        guard !body.isEmpty else { return [] }
        if message.contentType == .pairingTLV8 {
            var cursor = ByteCursor(message.bodySpan, layer: .tlv8)
            let decoded = TLV8Body(parsingLeniently: &cursor)
            return TLVText.itemLines(decoded, style: settings.style)
        }
        let shown = body.prefix(Self.verboseBodyLimit)
        var lines: [String]
        if let text = String(validating: shown, as: UTF8.self) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitized(String($0)) }
        } else {
            lines = TLVText.hexDump(Array(shown))
        }
        if body.count > shown.count {
            lines.append(settings.style.paint("… \(body.count - shown.count) more bytes", .dim))
        }
        return lines
    }

    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text:
            context.writeFindings(findings)
            output.write(context.footer("\(messageCount) HTTP message\(messageCount == 1 ? "" : "s")") + "\n")
        case .json, .ndjson:
            stream.finish(clock: clock, findings: findings)
        }
        output.endOfRecord()
    }
}
