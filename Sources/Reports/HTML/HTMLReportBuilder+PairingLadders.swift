import HAPEvents
import Packets
import TLV8
import WireParsing

/// Pairing ladders: each pair-setup, pair-verify and `/pairings` exchange drawn in SVG as arrows
/// between a controller lane and an accessory lane, followed by the checks hapscope made and
/// every item of every message.
extension HTMLReportBuilder {
    /// One pairing exchange, reduced to what its ladder shows.
    struct PairingLadder {
        /// One message of the exchange: one arrow.
        struct Step {
            let packet: PacketInfo?
            let direction: HAPDirection
            /// `M1` … `M6`, or `?` when the message has no usable State.
            let state: String
            /// The step and what it asks or answers: `M1 · PairSetup (0)`, `M4 · Error Authentication (2)`.
            let headline: String
            /// The other items by name and size or meaning: `Salt 16 B · PublicKey 384 B`.
            let keyItems: String
            /// The accessory refused (an Error item).
            let isError: Bool
            /// Every item as `Type = value`, in wire order.
            let items: [String]
            let omittedItems: Int
            /// The decrypted EncryptedData sub-TLV, when the key log opened it.
            let decrypted: String?
            /// What a strict reader would reject.
            let problems: [String]
            /// Seconds since the previous message of the exchange.
            let elapsed: Double?

            init(_ message: PairingMessageEvent, packet: PacketInfo?, limits: HTMLReportLimits) {
                let body = message.body
                self.packet = packet
                direction = message.direction
                state = message.state?.description ?? "?"
                isError = body.first(.error) != nil
                // The pairing decoder repeats the TLV8 diagnostics of the body it decoded.
                let undecoded = body.diagnostics.filter { !message.diagnostics.contains(PairingDiagnostic(.tlv8($0.kind), offset: $0.offset)) }
                let problems = message.diagnostics.map(\.description) + undecoded.map(\.description)
                self.problems = problems.prefix(limits.itemsPerList).map(limits.clipped)

                var headline = [message.state?.description ?? "State ?"]
                if let method = body.first(.method) { headline.append(limits.clipped(method.displayValue)) }
                if let error = body.first(.error) { headline.append("Error " + limits.clipped(error.displayValue)) }
                if !problems.isEmpty { headline.append("⚠ \(HTMLFormat.count(problems.count, "problem"))") }
                self.headline = headline.joined(separator: " · ")

                let subTLV = message.decrypted.map { Self.summary(of: $0, limits: limits) }
                var keyItems: [String] = []
                for item in body.items.prefix(limits.itemsPerList) where ![.state, .method, .error].contains(item.type) {
                    switch item.type {
                    case .identifier, .permissions, .flags, .retryDelay: keyItems.append("\(item.type) \(limits.clipped(item.displayValue))")
                    case .separator: keyItems.append("—")
                    default: keyItems.append("\(item.type) \(item.value.count) B")
                    }
                }
                if let subTLV { keyItems.append("→ " + subTLV) }
                self.keyItems = keyItems.joined(separator: " · ")

                items = body.items.prefix(limits.itemsPerList).map { limits.clipped("\($0.type) = \($0.displayValue)") }
                omittedItems = max(0, body.items.count - limits.itemsPerList)
                decrypted = subTLV
                elapsed = message.elapsed
            }

            private static func summary(of subTLV: PairingSubTLV, limits: HTMLReportLimits) -> String {
                var parts: [String] = []
                if let identifier = subTLV.identifier { parts.append("Identifier \(limits.clipped(identifier.description))") }
                if let key = subTLV.publicKey { parts.append("PublicKey \(key.count) B") }
                if let signature = subTLV.signature { parts.append("Signature \(signature.count) B") }
                if let certificate = subTLV.certificate { parts.append("Certificate \(certificate.count) B") }
                return parts.isEmpty ? "decrypted, empty" : parts.joined(separator: ", ")
            }
        }

        /// A check hapscope made with the keys it had.
        struct Check {
            enum Outcome {
                case passed
                case failed
                case notChecked(reason: String)
            }

            let name: String
            let outcome: Outcome
            let detail: String
        }

        let procedure: PairingProcedure
        let connection: ConnectionInfo
        /// `PairSetup (0)`, and the pairing flags, when the M1 said.
        let method: String?
        let flags: String?
        let outcome: PairingOutcome
        let steps: [Step]
        let droppedSteps: Int
        let checks: [Check]
        let srpProblems: [String]
        /// Pairing identifiers, long-term public keys and the SRP salt learned from the exchange.
        let identities: [String]

        var succeeded: Bool { outcome == .succeeded }

        init(_ collected: PairingLadderCollector.Ladder, limits: HTMLReportLimits) {
            let exchange = collected.exchange
            steps = collected.steps.map { Step($0.message, packet: $0.packet, limits: limits) }
            droppedSteps = collected.droppedSteps
            procedure = exchange.procedure
            connection = exchange.connection
            method = exchange.method?.description
            flags = exchange.flags?.description
            outcome = exchange.outcome
            checks = exchange.checks.prefix(limits.itemsPerList).map { check in
                let outcome: Check.Outcome = switch check.outcome {
                case .passed: .passed
                case .failed: .failed
                case .notChecked(let reason): .notChecked(reason: limits.clipped(reason))
                }
                return Check(name: limits.clipped(check.name), outcome: outcome, detail: limits.clipped(check.detail))
            }
            srpProblems = exchange.srpProblems.prefix(limits.itemsPerList).map(\.description)
            var identities: [String] = []
            if let id = exchange.controllerPairingID { identities.append("controller \(limits.clipped(id))") }
            if let key = exchange.controllerLTPK { identities.append("controller LTPK \(limits.clipped(Hex.encode(key)))") }
            if let id = exchange.accessoryPairingID { identities.append("accessory \(limits.clipped(id))") }
            if let key = exchange.accessoryLTPK { identities.append("accessory LTPK \(limits.clipped(Hex.encode(key)))") }
            if let salt = exchange.salt { identities.append("salt \(limits.clipped(Hex.encode(salt)))") }
            self.identities = identities
        }
    }

    func writePairingLadders(_ html: inout HTMLWriter) {
        html.section(id: "pairing", title: "Pairing") { html in
            if ladders.isEmpty {
                html.element("p", ["class": "muted"], text: "No pairing exchange in the capture.")
            }
            for (index, ladder) in ladders.enumerated() {
                writeLadder(ladder, number: index + 1, &html)
            }
            html.omissionNote(droppedLadders, "pairing exchange", "pairing exchanges",
                              reason: "the report draws the first \(HTMLFormat.count(limits.pairingLadders)); the summary counts every one")
        }
    }

    private func writeLadder(_ ladder: PairingLadder, number: Int, _ html: inout HTMLWriter) {
        html.open("div", ["class": "ladder-block", "id": "pairing-\(number)"])
        html.element("h3") { html in
            html.text("\(Self.title(of: ladder.procedure)) on connection \(ladder.connection.id)")
            if let method = ladder.method { html.text(" · \(method)") }
            if let flags = ladder.flags { html.text(" · flags \(flags)") }
            html.text(" · ")
            html.span(ladder.succeeded ? "ok" : "bad", ladder.outcome.description)
        }
        writeDiagram(ladder, &html)
        html.omissionNote(ladder.droppedSteps, "later message", "later messages",
                          reason: "a ladder draws the first \(HTMLFormat.count(limits.messagesPerLadder)) messages of an exchange")
        writeChecks(ladder, &html)
        writeMessageItems(ladder, &html)
        html.close("div")
        html.markup("\n")
    }

    // MARK: The diagram

    private enum Ladder {
        static let width = 860.0
        static let controllerX = 240.0
        static let accessoryX = 680.0
        static let headerHeight = 58.0
        static let rowHeight = 54.0
        static let footerHeight = 30.0
        /// Characters of a label that fit between the lanes at the label's font size.
        static let labelCharacters = 66
    }

    private func writeDiagram(_ ladder: PairingLadder, _ html: inout HTMLWriter) {
        let height = Ladder.headerHeight + Double(ladder.steps.count) * Ladder.rowHeight + Ladder.footerHeight
        let summary = "\(Self.title(of: ladder.procedure)) between \(ladder.connection.controller) and "
            + "\(ladder.connection.accessory): \(HTMLFormat.count(ladder.steps.count, "message")), \(ladder.outcome)"
        html.open("svg", [
            "class": "ladder", "viewBox": "0 0 \(Int(Ladder.width)) \(Int(height))", "width": "\(Int(Ladder.width))",
            "role": "img", "aria-label": summary,
        ])
        html.element("title", text: summary)
        for (x, role, endpoint) in [
            (Ladder.controllerX, "controller", ladder.connection.controller.description),
            (Ladder.accessoryX, "accessory", ladder.connection.accessory.description),
        ] {
            html.open("rect", ["class": "lane-head", "x": Self.coordinate(x - 95), "y": "4", "width": "190", "height": "40", "rx": "6"])
            html.close("rect")
            html.element("text", ["class": role, "x": Self.coordinate(x), "y": "20", "text-anchor": "middle"],
                         text: role == "controller" ? "Controller" : "Accessory")
            html.element("text", ["class": "muted", "x": Self.coordinate(x), "y": "37", "text-anchor": "middle"], text: endpoint)
            html.open("line", ["class": "lane", "x1": Self.coordinate(x), "y1": "44", "x2": Self.coordinate(x), "y2": Self.coordinate(height - 6)])
            html.close("line")
        }
        for (row, step) in ladder.steps.enumerated() {
            writeArrow(step, y: Ladder.headerHeight + Double(row) * Ladder.rowHeight + 26, &html)
        }
        html.element("text", ["class": ladder.succeeded ? "step ok" : "step bad", "x": "8", "y": Self.coordinate(height - 10)],
                     text: (ladder.succeeded ? "✓ " : "✗ ") + ladder.outcome.description)
        html.close("svg")
        html.markup("\n")
    }

    /// One message: the arrow between the lanes, its step and key items above it, its other
    /// items below, the packet and capture time on the left and the time it took on the right.
    private func writeArrow(_ step: PairingLadder.Step, y: Double, _ html: inout HTMLWriter) {
        let toAccessory = step.direction == .controllerToAccessory
        let (start, end) = toAccessory ? (Ladder.controllerX, Ladder.accessoryX) : (Ladder.accessoryX, Ladder.controllerX)
        let head = toAccessory ? -9.0 : 9.0
        let middle = (Ladder.controllerX + Ladder.accessoryX) / 2
        html.open("g", ["class": step.isError ? "message error" : "message"])
        html.element("title", text: step.items.joined(separator: "\n"))
        html.open("line", ["class": "arrow", "x1": Self.coordinate(start), "y1": Self.coordinate(y),
                           "x2": Self.coordinate(end + head), "y2": Self.coordinate(y)])
        html.close("line")
        html.open("polygon", ["class": "arrow-head", "points":
            "\(Self.coordinate(end)),\(Self.coordinate(y)) \(Self.coordinate(end + head)),\(Self.coordinate(y - 5)) "
            + "\(Self.coordinate(end + head)),\(Self.coordinate(y + 5))"])
        html.close("polygon")
        html.element("text", ["class": "step", "x": Self.coordinate(middle), "y": Self.coordinate(y - 7), "text-anchor": "middle"],
                     text: Self.fitted(step.headline))
        if !step.keyItems.isEmpty {
            html.element("text", ["class": "muted", "x": Self.coordinate(middle), "y": Self.coordinate(y + 17), "text-anchor": "middle"],
                         text: Self.fitted(step.keyItems))
        }
        if let packet = step.packet {
            html.element("text", ["x": "8", "y": Self.coordinate(y - 3)], text: "#\(packet.number)")
            html.element("text", ["class": "muted", "x": "8", "y": Self.coordinate(y + 12)], text: HTMLFormat.offset(offset(packet.timestamp)))
        }
        if let elapsed = step.elapsed {
            // HAP: responses are the even steps; their delay is the accessory's work.
            let label = (toAccessory ? "after " : "took ") + HTMLFormat.duration(elapsed)
            html.element("text", ["class": "muted", "x": Self.coordinate(Ladder.accessoryX + 14), "y": Self.coordinate(y + 4)], text: label)
        }
        html.close("g")
        html.markup("\n")
    }

    // MARK: Checks and items

    private func writeChecks(_ ladder: PairingLadder, _ html: inout HTMLWriter) {
        if !ladder.checks.isEmpty || !ladder.srpProblems.isEmpty {
            html.markup("<ul class=\"checks\">")
            for check in ladder.checks {
                html.element("li") { html in
                    switch check.outcome {
                    case .passed:
                        html.span("ok", "✓ \(check.name)")
                        html.text(": " + check.detail)
                    case .failed:
                        html.span("bad", "✗ \(check.name)")
                        html.text(": " + check.detail)
                    case .notChecked(let reason):
                        html.span("muted", "– \(check.name)")
                        html.text(": not checked (\(reason))")
                    }
                }
            }
            for problem in ladder.srpProblems {
                html.element("li") { html in html.span("bad", "✗ SRP: \(problem)") }
            }
            html.markup("</ul>\n")
        }
        if !ladder.identities.isEmpty { html.element("p", ["class": "muted mono wrap"], text: ladder.identities.joined(separator: " · ")) }
    }

    private func writeMessageItems(_ ladder: PairingLadder, _ html: inout HTMLWriter) {
        guard !ladder.steps.isEmpty else { return }
        html.element("details") { html in
            html.element("summary", text: "Items of the \(HTMLFormat.count(ladder.steps.count, "message"))")
            html.table(headers: ["Step", "Packet", "Direction", "Items", "Problems"]) { html in
                for step in ladder.steps {
                    html.markup("<tr>")
                    html.cell(step.state)
                    html.packetCell(step.packet?.number)
                    html.cell(step.direction == .controllerToAccessory ? "controller → accessory" : "accessory → controller")
                    html.element("td", ["class": "mono wrap"]) { html in
                        for (index, item) in step.items.enumerated() {
                            if index > 0 { html.markup("<br>") }
                            html.text(item)
                        }
                        if step.omittedItems > 0 {
                            html.markup("<br>")
                            html.span("note", "\(HTMLFormat.count(step.omittedItems, "more item")) not shown")
                        }
                        if let decrypted = step.decrypted {
                            html.markup("<br>")
                            html.span("ok", "EncryptedData decrypted: " + decrypted)
                        }
                    }
                    html.element("td") { html in
                        for (index, problem) in step.problems.enumerated() {
                            if index > 0 { html.markup("<br>") }
                            html.span("bad", problem)
                        }
                    }
                    html.markup("</tr>\n")
                }
            }
        }
    }

    // MARK: Wording

    static func title(of procedure: PairingProcedure) -> String {
        switch procedure {
        case .pairSetup: "Pair Setup"
        case .pairVerify: "Pair Verify"
        case .pairings: "Pairings"
        }
    }

    /// A label cut to the room between the lanes.
    private static func fitted(_ text: String) -> String {
        text.count <= Ladder.labelCharacters ? text : text.prefix(Ladder.labelCharacters - 1) + "…"
    }

    /// SVG coordinates to one decimal: enough for a screen, and the same text on every platform.
    static func coordinate(_ value: Double) -> String {
        HTMLFormat.decimal(value, decimals: 1)
    }
}
