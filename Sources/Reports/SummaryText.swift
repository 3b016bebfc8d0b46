import TLV8
import HAPEvents
import HAPModel
import HAPJSON
import Packets

/// The text of `hapscope summary`: sections of aligned rows, each cut at `limit` rows with the
/// command that shows them all.
struct SummaryText {
    let model: CaptureModel
    let clock: CaptureClock
    let style: TextStyle
    let limit: Int

    static let activityKinds: [CharacteristicActivity.Kind] = [.read, .write, .event, .subscribe, .unsubscribe]

    /// What one entry of each kind is called in a count: `3 subscriptions`.
    static func noun(_ kind: CharacteristicActivity.Kind) -> String {
        switch kind {
        case .read: "read"
        case .write: "write"
        case .event: "event"
        case .subscribe: "subscription"
        case .unsubscribe: "unsubscription"
        }
    }

    func lines(findings: [Finding]?) -> [String] {
        var lines = overview()
        lines += [""] + accessories()
        lines += [""] + connections()
        lines += [""] + pairing()
        lines += [""] + sessions()
        lines += [""] + activity()
        lines += [""] + problems()
        if let findings {
            lines.append(heading("findings") + "    " + FindingText.count(findings))
            for finding in findings.sorted(by: { $0.severity > $1.severity }).prefix(limit) {
                lines.append("  " + FindingText.line(finding, style: style))
            }
            lines += more(findings.count, "findings")
        }
        return lines
    }

    private func heading(_ text: String) -> String {
        style.paint(text, .heading)
    }

    /// `  … 12 more (hapscope pairing lists them all)`.
    private func more(_ total: Int, _ command: String) -> [String] {
        total > limit ? [style.paint("  … \(total - limit) more (hapscope \(command) lists them all)", .dim)] : []
    }

    private func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }

    // MARK: Sections

    private func overview() -> [String] {
        var lines: [String] = []
        let inputs = model.inputs.map { "\(TerminalText.sanitized($0.name)) (\($0.linkType))" }
        lines.append(heading("input") + "         " + (inputs.isEmpty ? "no packets" : inputs.joined(separator: ", ")))
        if let summary = model.summary {
            var traffic = "\(plural(summary.packets, "packet")), \(summary.bytes) bytes"
            if let first = summary.firstPacketTime, let last = summary.lastPacketTime,
               let seconds = CaptureClock.seconds(from: first, to: last) {
                traffic += " over \(CaptureClock.durationText(seconds)) from \(CaptureClock.iso8601(first))"
            }
            lines.append(heading("traffic") + "       " + traffic)
            lines.append("              " + "\(plural(summary.tcpConnections, "TCP connection")) (\(summary.hapConnections) HAP), "
                + "\(plural(summary.mdnsMessages, "mDNS message")), \(plural(summary.udpDatagrams, "UDP datagram")), "
                + "\(summary.otherPackets) other, \(summary.undecodablePackets) undecodable")
        }
        return lines
    }

    private func accessories() -> [String] {
        var lines = [heading("accessories") + " " + "\(model.accessories.count)"]
        let rows = model.accessories.prefix(limit).map { accessory -> [String] in
            let category = accessory.categoryName.map { "\($0)" + (accessory.categoryIdentifier.map { " (ci \($0))" } ?? "") } ?? ""
            let paired: String = switch accessory.statusFlags {
            case let flags? where flags.contains(.notPaired): "unpaired (sf=\(flags.rawValue))"
            case let flags?: "paired (sf=\(flags.rawValue))"
            case nil: ""
            }
            var address = accessory.endpoints.first?.description ?? ""
            if accessory.endpoints.count > 1 { address += " +\(accessory.endpoints.count - 1)" }
            return [
                TerminalText.sanitized(accessory.name ?? accessory.key), accessory.deviceID.map(TerminalText.sanitized) ?? "",
                accessory.model.map { "model " + TerminalText.sanitized($0) } ?? "", category, address,
                accessory.configurationNumber.map { "c#=\($0)" } ?? "", paired,
                accessory.firstSeen.map { "#\($0.number)" } ?? "",
            ]
        }
        lines += Self.aligned(rows, indent: "  ")
        for accessory in model.accessories.prefix(limit) {
            guard let borrowed = accessory.databaseSource?.wording else { continue }
            lines.append("  " + TerminalText.sanitized(accessory.name ?? accessory.key) + ": no /accessories in this capture; typed by " + borrowed)
        }
        lines += more(model.accessories.count, "discover")
        return lines
    }

    private func connections() -> [String] {
        var title = heading("connections") + " \(model.connections.count)"
        if model.counts.droppedConnections > 0 { title += " (and \(model.counts.droppedConnections) not kept)" }
        var lines = [title]
        let rows = model.connections.prefix(limit).map { connection -> [String] in
            let first = connection.closed?.firstPacket ?? connection.opened
            let span = "#\(first?.number ?? 0)–" + (connection.closed.map { "#\($0.lastPacket.number)" } ?? "")
            let traffic: String = switch connection.session {
            case nil: "plaintext"
            case let session? where session.decryptable.count == 2: "decrypted"
            case let session? where session.decryptable.isEmpty: "encrypted"
            case _?: "half decrypted"
            }
            return [
                "#\(connection.info.id)", "\(connection.info.controller) → \(connection.info.accessory)", span, traffic,
                connection.closed.map(EventText.carried) ?? plural(connection.httpMessages, "HTTP message"),
                connection.closed?.closingWording ?? "open",
            ]
        }
        lines += Self.aligned(rows, indent: "  ")
        lines += more(model.connections.count, "stats")
        return lines
    }

    private func pairing() -> [String] {
        let counts = [PairingProcedure.pairSetup, .pairVerify, .pairings].compactMap { procedure -> String? in
            guard let tally = model.counts.pairingExchanges[procedure] else { return nil }
            var parts: [String] = []
            if tally.succeeded > 0 { parts.append("\(tally.succeeded) succeeded") }
            if tally.failed > 0 { parts.append(style.paint("\(tally.failed) failed", .bad)) }
            if tally.incomplete > 0 { parts.append(style.paint("\(tally.incomplete) incomplete", .warning)) }
            return "\(procedure) " + parts.joined(separator: ", ")
        }
        var lines = [heading("pairing") + "     " + (counts.isEmpty ? "none" : counts.joined(separator: "; "))]
        let rows = model.exchanges.prefix(limit).map { exchange -> [String] in
            let times = exchange.accessoryResponseTimes.map { "\($0.state) \(CaptureClock.durationText($0.seconds))" }
            let failed = exchange.checks.filter { $0.outcome == .failed }.map(\.name)
            let first = exchange.steps.first.map { "#\($0.packet.number)" } ?? ""
            return [
                "#\(exchange.connection.id)", exchange.procedure.rawValue,
                exchange.method.map { "\($0)" } ?? PairingText.pairingsSummary(exchange).map(TerminalText.sanitized) ?? "",
                style.paint(PairingText.outcome(exchange.outcome), PairingText.role(exchange.outcome)),
                times.joined(separator: ", "),
                failed.isEmpty ? "" : style.paint("failed: " + failed.joined(separator: ", "), .bad), first,
            ]
        }
        lines += Self.aligned(rows, indent: "  ")
        lines += more(model.exchanges.count, "pairing")
        return lines
    }

    private func sessions() -> [String] {
        let encrypted = model.connections.filter { $0.session != nil }
        var lines = [heading("sessions") + "    " + "\(model.counts.sessions) encrypted, \(model.counts.decryptedSessions) decrypted"]
        for connection in encrypted.prefix(limit) {
            guard let session = connection.session else { continue }
            var text = "#\(connection.info.id)  "
            switch session.decryptable.count {
            case 2: text += style.paint("decrypted", .good) + " both directions"
            case 1: text += style.paint("decrypted", .warning) + " \(session.decryptable.first!) only"
            default: text += style.paint("not decrypted", .bad)
            }
            if let source = session.keySource { text += " with \(source)" }
            if let reason = session.undecryptableWording { text += ": " + TerminalText.sanitized(reason) }
            lines.append("  " + text)
            for direction in HAPDirection.allCases {
                guard let outcome = connection.joins[direction] else { continue }
                let join = SessionJoinEvent(connection: connection.info, direction: direction, outcome: outcome)
                lines.append("        " + EventText.arrow(direction) + " " + join.wording)
            }
            for problem in connection.sessionProblems.prefix(3) {
                lines.append("        " + style.paint("\(problem.kind.rawValue) \(EventText.arrow(problem.direction)) ", .bad)
                    + TerminalText.sanitized(problem.message))
            }
        }
        lines += more(encrypted.count, "events")
        return lines
    }

    private func activity() -> [String] {
        let counts = model.counts.characteristicActivity
        let parts = Self.activityKinds.compactMap { kind -> String? in
            let count = counts[kind] ?? 0
            return count == 0 ? nil : plural(count, Self.noun(kind))
        }
        var lines = [heading("activity") + "    " + (parts.isEmpty ? "no characteristic reads, writes or events" : parts.joined(separator: ", "))]
        let entries = model.accessories.flatMap { accessory in
            accessory.characteristics.map { (accessory: accessory, id: $0.key, record: $0.value) }
        }.sorted { left, right in
            let leftTotal = left.record.reads + left.record.writes + left.record.events
            let rightTotal = right.record.reads + right.record.writes + right.record.events
            return leftTotal != rightTotal ? leftTotal > rightTotal : (left.accessory.key, left.id) < (right.accessory.key, right.id)
        }
        // With several accessories, `2.12` alone does not say whose characteristic it is.
        let namesAccessories = Set(entries.map(\.accessory.key)).count > 1
        let rows = entries.prefix(limit).map { entry -> [String] in
            let record = entry.record
            var uses: [String] = []
            if record.reads > 0 { uses.append(plural(record.reads, "read")) }
            if record.writes > 0 { uses.append(plural(record.writes, "write")) }
            if record.events > 0 { uses.append(plural(record.events, "event")) }
            // The accessory's database, when the capture holds one, gives the value its unit and names.
            let characteristic = entry.accessory.database?.characteristic(entry.id)
            let last = record.lastValue.map {
                "last " + ValueText.describe($0.value, type: characteristic?.type, unit: characteristic?.metadata.unit)
            }
            return (namesAccessories ? [TerminalText.sanitized(entry.accessory.name ?? entry.accessory.key)] : []) + [
                entry.id.description, record.name.map(TerminalText.sanitized) ?? "?", uses.joined(separator: ", "),
                last ?? "",
                record.lastStatus.map { style.paint("status \($0)", .bad) } ?? "",
            ]
        }
        lines += Self.aligned(rows, indent: "  ")
        lines += more(entries.count, "timeline")
        return lines
    }

    private func problems() -> [String] {
        let total = model.problemCounts.values.reduce(0, +)
        let kinds = model.problemCounts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        var lines = [heading("problems") + "    " + (total == 0 ? "none" : style.paint("\(total) (" + kinds.joined(separator: ", ") + ")", .warning))]
        for entry in model.problems.prefix(min(limit, 5)) {
            lines.append("  " + style.paint(entry.packet.map { "#\($0.number) " } ?? "", .dim) + TerminalText.sanitized(entry.problem.message))
        }
        if total > min(limit, 5) { lines.append(style.paint("  … \(total - min(limit, 5)) more (hapscope events lists them all)", .dim)) }
        return lines
    }

    /// Rows padded into columns on their plain text, numbers (the columns in `rightAligned`)
    /// flush right. Colored cells are measured without their escape sequences, so color does not
    /// disturb the alignment.
    static func aligned(_ rows: [[String]], indent: String, rightAligned: Set<Int> = []) -> [String] {
        let columnCount = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columnCount)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], visibleWidth(cell)) }
        }
        return rows.map { row in
            var line = indent
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - visibleWidth(cell))
                let isLast = index == row.count - 1
                if rightAligned.contains(index) {
                    line += padding + cell
                } else {
                    line += cell + (isLast ? "" : padding)
                }
                if !isLast, widths[index] > 0 { line += "  " }
            }
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Characters a terminal shows: the text without SGR escape sequences.
    static func visibleWidth(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
