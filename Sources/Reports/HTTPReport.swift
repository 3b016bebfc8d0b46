import HAPEvents
import HTTP1
import TLV8
import WireParsing

/// `hapscope http`: every HAP HTTP message, decrypted where the key log allows, as it is
/// reassembled. Text shows one line per message with the connection's opening, its switch to
/// encryption and why a session could not be read; `verbose` adds headers and bodies (pairing
/// bodies decoded as TLV8). JSON and NDJSON carry `http-message` events (docs/json.md).
public typealias HTTPReport = StreamedReport<HTTPLines>

extension StreamedReport where Text == HTTPLines {
    public convenience init(output: ReportOutput, settings: ReportSettings, verbose: Bool = false) {
        self.init(output: output, settings: settings, text: HTTPLines(verbose: verbose))
    }
}

/// The text of `hapscope http`.
public struct HTTPLines: StreamedText {
    let verbose: Bool
    private var messageCount = 0
    /// How much of a body `verbose` shows.
    static let verboseBodyLimit = 4096

    init(verbose: Bool) {
        self.verbose = verbose
    }

    public var command: String { "http" }

    public func carries(_ kind: HAPEvent.Kind) -> Bool {
        if case .httpMessage = kind { return true }
        if verbose, case .characteristic(let activity) = kind { return activity.structure != nil }
        return false
    }

    public mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool {
        switch event.kind {
        case .httpMessage(let http):
            messageCount += 1
            writeMessage(http, packet: event, on: page)
        case .connectionOpened, .sessionStarted, .sessionProblem, .connectionClosed:
            page.write(EventText.line(event, clock: page.clock, style: page.style) + "\n")
        case .characteristic(let activity) where verbose:
            guard let structure = activity.structure else { return false }
            writeStructure(activity, structure, packet: event, on: page)
        default:
            return false
        }
        return true
    }

    public var closingWords: String? { "\(messageCount) HTTP message\(messageCount == 1 ? "" : "s")" }

    private func writeMessage(_ http: HTTPMessageEvent, packet event: HAPEvent, on page: TextPage) {
        let style = page.style
        let clock = page.clock
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
        page.write(line + "\n")
        guard verbose else { return }
        let indent = String(repeating: " ", count: 34)
        for field in message.headers {
            page.write(indent + TerminalText.sanitized(field.name) + ": " + TerminalText.sanitized(field.value) + "\n")
        }
        for diagnostic in message.diagnostics {
            page.write(indent + style.paint("! \(diagnostic)", .warning) + "\n")
        }
        for bodyLine in bodyLines(http, style: style) {
            page.write(indent + "  " + bodyLine + "\n")
        }
    }

    /// A TLV8 value of known structure from the message just shown: `write 2.15 Setup Endpoints`,
    /// then its fields.
    private func writeStructure(_ activity: CharacteristicActivity, _ structure: TLV8StructuredValue, packet event: HAPEvent, on page: TextPage) {
        let style = page.style
        var line = EventText.prefix(event.packet, clock: page.clock, style: style) + "  "
        line += style.paint(EventText.padRight("#\(activity.connection.id)", 12), .dim)
        line += "\(activity.kind.rawValue) \(activity.id) " + TerminalText.sanitized(activity.name ?? structure.schemaName) + " (TLV8)"
        page.write(line + "\n")
        let indent = String(repeating: " ", count: 34)
        for text in StructureText.lines(structure, style: style) { page.write(indent + "  " + text + "\n") }
    }

    /// The body in lines: pairing TLV8 decoded item by item, text as text, anything else as a hex
    /// dump; key material inside characteristic values zeroed (`HTTPMessageEvent.printableBody`).
    private func bodyLines(_ http: HTTPMessageEvent, style: TextStyle) -> [String] {
        let message = http.message
        guard !message.body.isEmpty else { return [] }
        guard let body = http.printableBody else {
            return [style.paint("(\(message.body.count) bytes withheld: key material in a characteristic value; --show-keys shows them)", .dim)]
        }
        if message.contentType == .pairingTLV8 {
            var cursor = ByteCursor(message.bodySpan, layer: .tlv8)
            let decoded = TLV8Body(parsingLeniently: &cursor)
            return TLVText.itemLines(decoded, style: style)
        }
        let shown = body.prefix(Self.verboseBodyLimit)
        var lines: [String]
        if let text = String(validating: shown, as: UTF8.self) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitized(String($0)) }
        } else {
            lines = TLVText.hexDump(Array(shown))
        }
        if body.count > shown.count {
            lines.append(style.paint("… \(body.count - shown.count) more bytes", .dim))
        }
        if http.bodyWithoutSecrets != nil {
            lines.append(style.paint("(SRTP master keys and salts zeroed in the values above; --show-keys shows them)", .dim))
        }
        return lines
    }
}
