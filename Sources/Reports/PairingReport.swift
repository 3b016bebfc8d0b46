import HAPEvents
import Packets
import TLV8

/// `hapscope pairing`: each pair-setup, pair-verify and `/pairings` exchange as a ladder between
/// controller and accessory, M1 to M6, with every TLV item decoded, what the accessory refused,
/// the checks hapscope could make (proofs, signatures) and how long the accessory took.
///
/// A ladder is written when its exchange ends; messages wait per connection until then, so
/// exchanges on concurrent connections do not interleave.
public typealias PairingReport = StreamedReport<PairingLadderLines>

extension StreamedReport where Text == PairingLadderLines {
    public convenience init(output: ReportOutput, settings: ReportSettings) {
        self.init(output: output, settings: settings, text: PairingLadderLines())
    }
}

/// The text of `hapscope pairing`: a ladder per exchange, written when the exchange ends.
public struct PairingLadderLines: StreamedText {
    /// The most messages one ladder shows; HAP's longest exchange has six.
    static let maximumStepsShown = 64
    private var ladders = PairingLadderCollector(maximumSteps: maximumStepsShown)
    private var exchangeCount = 0
    /// The width of the arrow between the two lanes.
    private static let arrowWidth = 34

    init() {}

    public var command: String { "pairing" }

    public func carries(_ kind: HAPEvent.Kind) -> Bool {
        switch kind {
        case .pairingMessage, .pairingExchange: true
        default: false
        }
    }

    public mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool {
        guard let ladder = ladders.take(event) else { return false }
        exchangeCount += 1
        writeLadder(ladder, on: page)
        return true
    }

    public var closingWords: String? { "\(exchangeCount) pairing exchange\(exchangeCount == 1 ? "" : "s")" }
    public var separatesClosingLine: Bool { true }

    private func writeLadder(_ ladder: PairingLadderCollector.Ladder, on page: TextPage) {
        let exchange = ladder.exchange
        let style = page.style
        let connection = exchange.connection
        var title = style.paint("\(exchange.procedure)", .heading) + " on #\(connection.id) \(connection.controller) → \(connection.accessory)"
        if let method = exchange.method { title += "  Method \(method)" }
        if let flags = exchange.flags { title += "  Flags \(flags)" }
        title += "  " + style.paint(PairingText.outcome(exchange.outcome), PairingText.role(exchange.outcome))
        page.write("\n" + title + "\n")
        if let summary = PairingText.pairingsSummary(exchange) {
            page.write("  " + TerminalText.sanitized(summary) + "\n")
        }
        page.write(style.paint(EventText.padLeft("time", 12) + EventText.padLeft("packet", 8) + "  "
            + EventText.padRight("controller", Self.arrowWidth - "accessory".count) + "accessory", .dim) + "\n")
        for step in ladder.steps {
            writeStep(step.message, packet: step.packet, on: page)
        }
        if ladder.droppedSteps > 0 {
            page.write(style.paint("  … \(ladder.droppedSteps) more messages in this exchange (hapscope events lists them)", .dim) + "\n")
        }
        writeChecks(exchange, on: page)
    }

    private func writeStep(_ message: PairingMessageEvent, packet: PacketInfo?, on page: TextPage) {
        let style = page.style
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
        page.write(EventText.prefix(packet, clock: page.clock, style: style) + "  " + arrow + "\n")

        let indent = String(repeating: " ", count: 24)
        for line in TLVText.itemLines(message.body, style: style) where !line.isEmpty {
            page.write(indent + line + "\n")
        }
        if let inner = message.decrypted {
            page.write(indent + style.paint("encryptedData, decrypted:", .good) + "\n")
            var fields: [(String, String)] = []
            if let identifier = inner.identifier { fields.append(("identifier", identifier.description)) }
            if let key = inner.publicKey { fields.append(("publicKey", ValueText.bytesSummary(key))) }
            if let signature = inner.signature { fields.append(("signature", ValueText.bytesSummary(signature))) }
            if let certificate = inner.certificate { fields.append(("certificate", ValueText.bytesSummary(certificate))) }
            for (name, value) in fields {
                page.write(indent + "       " + EventText.padRight(name, 12) + TerminalText.sanitized(value) + "\n")
            }
        }
        let structural = Set(message.body.diagnostics.map(\.offset))
        for diagnostic in message.diagnostics where !(isTLV8(diagnostic) && structural.contains(diagnostic.offset)) {
            page.write(indent + style.paint("! \(diagnostic)", .warning) + "\n")
        }
    }

    /// Whether the diagnostic is the TLV8 encoding's own, which the item lines already show.
    private func isTLV8(_ diagnostic: PairingDiagnostic) -> Bool {
        if case .tlv8 = diagnostic.kind { return true }
        return false
    }

    private func writeChecks(_ exchange: PairingExchangeEvent, on page: TextPage) {
        let style = page.style
        let times = exchange.accessoryResponseTimes
        if !times.isEmpty {
            page.write("  timings: " + times.map { "\($0.state) \(CaptureClock.durationText($0.seconds))" }.joined(separator: ", ") + "\n")
        }
        for check in exchange.checks {
            page.write("  " + PairingText.check(check, style: style) + "\n")
        }
        for problem in exchange.srpProblems {
            page.write("  " + style.paint("! \(problem)", .bad) + "\n")
        }
        if let id = exchange.accessoryPairingID { page.write("  accessory pairing ID " + TerminalText.sanitized(id) + "\n") }
        if let id = exchange.controllerPairingID { page.write("  controller pairing ID " + TerminalText.sanitized(id) + "\n") }
    }
}
