import HAPEvents
import TLV8

/// `hapscope pairing`: each pair-setup, pair-verify and `/pairings` exchange as a ladder between
/// controller and accessory, M1 to M6, with every TLV item decoded, what the accessory refused,
/// the checks hapscope could make (proofs, signatures) and how long the accessory took.
///
/// A ladder is written when its exchange ends; messages wait per connection until then, so
/// exchanges on concurrent connections do not interleave.
public final class PairingReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private let stream: EventStreamWriter
    private var context: TextContext
    /// Messages of the exchange in progress, by connection, and how many more were not kept.
    private var pending: [Int: [(event: HAPEvent, message: PairingMessageEvent)]] = [:]
    private var stepsLeftOut: [Int: Int] = [:]
    /// The most messages one ladder shows; HAP's longest exchange has six.
    static let maximumStepsShown = 64
    private var exchangeCount = 0
    /// The width of the arrow between the two lanes.
    private static let arrowWidth = 34

    public init(output: ReportOutput, settings: ReportSettings) {
        self.output = output
        self.settings = settings
        stream = EventStreamWriter(output: output, format: settings.format, command: "pairing")
        context = TextContext(output: output, style: settings.style)
    }

    public func take(_ event: HAPEvent) {
        guard settings.format == .text else {
            if stream.noteContext(event, clock: clock) { return }
            switch event.kind {
            case .pairingMessage, .pairingExchange: stream.write(event, clock: clock)
            default: break
            }
            return
        }
        if context.handle(event, clock: clock) { return }
        switch event.kind {
        case .pairingMessage(let message):
            // A peer that never ends an exchange must not make the report hold its messages forever.
            if pending[message.connection.id, default: []].count < Self.maximumStepsShown {
                pending[message.connection.id, default: []].append((event, message))
            } else {
                stepsLeftOut[message.connection.id, default: 0] += 1
            }
        case .pairingExchange(let exchange):
            exchangeCount += 1
            writeLadder(exchange, messages: pending.removeValue(forKey: exchange.connection.id) ?? [],
                        leftOut: stepsLeftOut.removeValue(forKey: exchange.connection.id) ?? 0)
            output.endOfRecord()
        default:
            break
        }
    }

    private func writeLadder(
        _ exchange: PairingExchangeEvent, messages: [(event: HAPEvent, message: PairingMessageEvent)], leftOut: Int
    ) {
        let style = settings.style
        let connection = exchange.connection
        var title = style.paint("\(exchange.procedure)", .heading) + " on #\(connection.id) \(connection.controller) → \(connection.accessory)"
        if let method = exchange.method { title += "  Method \(method)" }
        if let flags = exchange.flags { title += "  Flags \(flags)" }
        title += "  " + style.paint(PairingText.outcome(exchange.outcome), PairingText.role(exchange.outcome))
        output.write("\n" + title + "\n")
        if let summary = PairingText.pairingsSummary(exchange) {
            output.write("  " + TerminalText.sanitized(summary) + "\n")
        }
        output.write(style.paint(EventText.padLeft("time", 12) + EventText.padLeft("packet", 8) + "  "
            + EventText.padRight("controller", Self.arrowWidth - "accessory".count) + "accessory", .dim) + "\n")
        for (event, message) in messages {
            writeStep(message, event: event)
        }
        if leftOut > 0 {
            output.write(style.paint("  … \(leftOut) more messages in this exchange (hapscope events lists them)", .dim) + "\n")
        }
        writeChecks(exchange)
    }

    private func writeStep(_ message: PairingMessageEvent, event: HAPEvent) {
        let style = settings.style
        let state = message.state?.description ?? "M?"
        let refused = message.content?.errorResponse != nil
        let body = String(repeating: "─", count: Self.arrowWidth - state.count - 2)
        var arrow: String
        if message.direction == .controllerToAccessory {
            arrow = style.paint("\(state) \(body)▶", .controller)
        } else {
            arrow = style.paint("◀\(body) \(state)", refused ? .bad : .accessory)
        }
        if message.direction == .accessoryToController, let elapsed = message.elapsed {
            arrow += style.paint("  accessory took \(CaptureClock.durationText(elapsed))", .dim)
        } else if let elapsed = message.elapsed {
            arrow += style.paint("  \(CaptureClock.durationText(elapsed)) later", .dim)
        }
        output.write(EventText.prefix(event.packet, clock: clock, style: style) + "  " + arrow + "\n")

        let indent = String(repeating: " ", count: 24)
        for line in TLVText.itemLines(message.body, style: style) where !line.isEmpty {
            output.write(indent + line + "\n")
        }
        if let inner = message.decrypted {
            output.write(indent + style.paint("encryptedData, decrypted:", .good) + "\n")
            var fields: [(String, String)] = []
            if let identifier = inner.identifier { fields.append(("identifier", identifier.description)) }
            if let key = inner.publicKey { fields.append(("publicKey", ValueText.bytesSummary(key))) }
            if let signature = inner.signature { fields.append(("signature", ValueText.bytesSummary(signature))) }
            if let certificate = inner.certificate { fields.append(("certificate", ValueText.bytesSummary(certificate))) }
            for (name, value) in fields {
                output.write(indent + "       " + EventText.padRight(name, 12) + TerminalText.sanitized(value) + "\n")
            }
        }
        let structural = Set(message.body.diagnostics.map(\.offset))
        for diagnostic in message.diagnostics where !(isTLV8(diagnostic) && structural.contains(diagnostic.offset)) {
            output.write(indent + style.paint("! \(diagnostic)", .warning) + "\n")
        }
    }

    /// Whether the diagnostic is the TLV8 encoding's own, which the item lines already show.
    private func isTLV8(_ diagnostic: PairingDiagnostic) -> Bool {
        if case .tlv8 = diagnostic.kind { return true }
        return false
    }

    private func writeChecks(_ exchange: PairingExchangeEvent) {
        let style = settings.style
        let times = exchange.accessoryResponseTimes
        if !times.isEmpty {
            output.write("  timings: " + times.map { "\($0.state) \(CaptureClock.durationText($0.seconds))" }.joined(separator: ", ") + "\n")
        }
        for check in exchange.checks {
            output.write("  " + PairingText.check(check, style: style) + "\n")
        }
        for problem in exchange.srpProblems {
            output.write("  " + style.paint("! \(problem)", .bad) + "\n")
        }
        if let id = exchange.accessoryPairingID { output.write("  accessory pairing ID " + TerminalText.sanitized(id) + "\n") }
        if let id = exchange.controllerPairingID { output.write("  controller pairing ID " + TerminalText.sanitized(id) + "\n") }
    }

    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text:
            context.writeFindings(findings)
            output.write("\n" + context.footer("\(exchangeCount) pairing exchange\(exchangeCount == 1 ? "" : "s")") + "\n")
        case .json, .ndjson:
            stream.finish(clock: clock, findings: findings)
        }
        output.endOfRecord()
    }
}
