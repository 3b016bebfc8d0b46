import TLV8
import DNS
import HAPEvents
import HAPModel
import Packets

/// The page header and the summary: inputs, time span, accessories, connections and sessions,
/// pairing outcomes, activity, findings by severity, and what could not be analysed.
extension HTMLReportBuilder {
    func writeHeader(_ html: inout HTMLWriter, title: String) {
        html.markup("<header>\n")
        html.element("h1", text: title)
        let inputs = limits.clipped(model.inputs.map(\.name).joined(separator: ", "))
        html.element("p", ["class": "subtitle"], text: "HomeKit Accessory Protocol capture report" + (inputs.isEmpty ? "" : " · " + inputs))
        html.markup("""
            <nav><a href="#summary">Summary</a><a href="#accessories">Accessories</a><a href="#pairing">Pairing</a>\
            <a href="#timeline">Timeline</a><a href="#responses">Responses</a><a href="#mdns">mDNS</a><a href="#findings">Findings</a></nav>
            </header>\n
            """)
    }

    func writeSummary(_ html: inout HTMLWriter, findings: [Finding]) {
        html.section(id: "summary", title: "Summary") { html in
            writeSummaryCards(&html, findings: findings)
            writeInputs(&html)
            html.markup("<h3>Accessories</h3>\n")
            writeAccessoryTable(&html)
            html.markup("<h3>Connections and sessions</h3>\n")
            writeConnectionTable(&html)
            html.markup("<h3>Pairing outcomes</h3>\n")
            writePairingOutcomes(&html)
            html.markup("<h3>Activity</h3>\n")
            writeActivity(&html)
            html.markup("<h3>Findings by severity</h3>\n")
            writeSeverityCounts(&html, findings: findings)
            writeProblems(&html)
        }
    }

    private func writeSummaryCards(_ html: inout HTMLWriter, findings: [Finding]) {
        let summary = model.summary
        let tallies = model.counts.pairingExchanges.values
        let pairingsSucceeded = tallies.reduce(0) { $0 + $1.succeeded }
        let pairingsTotal = tallies.reduce(0) { $0 + $1.succeeded + $1.failed + $1.incomplete }
        let activity = [CharacteristicActivity.Kind.read, .write, .event].reduce(0) { $0 + (model.counts.characteristicActivity[$1] ?? 0) }
        var span = "—"
        if let first = summary?.firstPacketTime, let last = summary?.lastPacketTime { span = HTMLFormat.duration(last - first) }
        let worst = findings.map(\.severity).max()
        let cards: [(figure: String, label: String, className: String)] = [
            (HTMLFormat.count(summary?.packets ?? 0), "packets", ""),
            (span, "captured", ""),
            (HTMLFormat.count(model.accessories.count), "accessories", ""),
            (HTMLFormat.count(summary?.hapConnections ?? model.connections.count), "HAP connections", ""),
            ("\(pairingsSucceeded) / \(pairingsTotal)", "pairing exchanges succeeded", pairingsSucceeded < pairingsTotal ? "warn" : ""),
            ("\(model.counts.decryptedSessions) / \(model.counts.sessions)", "sessions decrypted",
             model.counts.decryptedSessions < model.counts.sessions ? "warn" : ""),
            (HTMLFormat.count(activity), "reads, writes and events", ""),
            (HTMLFormat.count(findings.count), "findings", worst.map { "sev-\($0)" } ?? "ok"),
        ]
        html.markup("<div class=\"cards\">\n")
        for card in cards {
            html.element("div", ["class": "card"]) { html in
                html.element("div", ["class": card.className.isEmpty ? "figure" : "figure " + card.className], text: card.figure)
                html.element("div", ["class": "label"], text: card.label)
            }
        }
        html.markup("</div>\n")
    }

    private func writeInputs(_ html: inout HTMLWriter) {
        html.table(class: "compact", headers: ["Input", "Link type"]) { html in
            for input in model.inputs {
                html.markup("<tr>")
                html.cell(limits.clipped(input.name))
                html.cell(input.linkType)
                html.markup("</tr>\n")
            }
        }
        guard let summary = model.summary else {
            html.element("p", ["class": "note"], text: "The input did not end normally; totals are missing.")
            return
        }
        var facts = "\(HTMLFormat.count(summary.packets, "packet")), \(HTMLFormat.count(summary.bytes, "byte"))"
        if let first = summary.firstPacketTime, let last = summary.lastPacketTime {
            facts += " from \(HTMLFormat.utc(first)) to \(HTMLFormat.utc(last)) (\(HTMLFormat.duration(last - first)))"
        }
        facts += "; \(HTMLFormat.count(summary.tcpConnections, "TCP connection")), \(HTMLFormat.count(summary.hapConnections, "HAP connection"))"
        facts += ", \(HTMLFormat.count(summary.mdnsMessages, "mDNS message")) in \(HTMLFormat.count(summary.udpDatagrams, "UDP datagram"))"
        if summary.otherPackets > 0 { facts += ", \(HTMLFormat.count(summary.otherPackets, "other packet"))" }
        if summary.undecodablePackets > 0 { facts += ", \(HTMLFormat.count(summary.undecodablePackets, "undecodable packet"))" }
        html.element("p", text: facts + ".")
    }

    private func writeAccessoryTable(_ html: inout HTMLWriter) {
        guard !model.accessories.isEmpty else {
            html.element("p", ["class": "muted"], text: "No HAP accessory was advertised or contacted.")
            return
        }
        html.table(headers: ["Name", "Model", "Device ID", "Category", "Address", "c#", "Status flags", "Connections", "First seen"]) { html in
            for accessory in model.accessories {
                html.markup("<tr>")
                html.cell(limits.clipped(accessory.name ?? "—"))
                html.cell(limits.clipped(accessory.model ?? "—"))
                html.element("td", ["class": "mono"], text: limits.clipped(accessory.deviceID ?? "—"))
                html.cell(limits.clipped(Self.category(name: accessory.categoryName, identifier: accessory.categoryIdentifier)))
                html.element("td", ["class": "mono wrap"], text: accessory.endpoints.isEmpty ? "—" : limits.clipped(accessory.endpoints.map(\.description).joined(separator: ", ")))
                html.cell(accessory.configurationNumber.map(String.init) ?? "—")
                html.cell(accessory.statusFlags.map(Self.describe) ?? "—")
                html.cell(accessory.connectionIDs.isEmpty ? "—" : limits.clipped(accessory.connectionIDs.map(String.init).joined(separator: ", ")))
                html.packetCell(accessory.firstSeen?.number)
                html.markup("</tr>\n")
            }
        }
    }

    private func writeConnectionTable(_ html: inout HTMLWriter) {
        guard !model.connections.isEmpty else {
            html.element("p", ["class": "muted"], text: "No HAP connection in the capture.")
            writeDroppedConnections(&html)
            return
        }
        html.table(
            headers: ["Conn.", "Controller", "Accessory", "Opened", "Pairings", "Session", "HTTP", "Closed"], numericColumns: [0, 4, 6]
        ) { html in
            for connection in model.connections {
                html.markup("<tr>")
                html.numberCell(String(connection.info.id))
                html.element("td", ["class": "mono"], text: connection.info.controller.description)
                html.element("td", ["class": "mono"], text: connection.info.accessory.description)
                html.element("td", ["class": "pkt"], text: (connection.opened.map { "#\($0.number)" } ?? "—")
                    + (connection.handshakeSeen ? "" : " (already open)"))
                html.numberCell(HTMLFormat.count(connection.pairingExchanges))
                html.element("td") { html in writeSession(of: connection, &html) }
                html.numberCell(HTMLFormat.count(connection.httpMessages))
                html.cell(connection.closed.map { limits.clipped("#\($0.lastPacket.number) \($0.reason.wording)") } ?? "open at the end of the capture")
                html.markup("</tr>\n")
            }
        }
        writeDroppedConnections(&html)
    }

    private func writeDroppedConnections(_ html: inout HTMLWriter) {
        html.omissionNote(model.counts.droppedConnections, "connection", "connections",
                          reason: "the capture model keeps the first \(HTMLFormat.count(model.retentionLimit))")
    }

    /// Whether the session was encrypted, which directions were decrypted with which key, and why
    /// not when they were not.
    private func writeSession(of connection: CaptureModel.Connection, _ html: inout HTMLWriter) {
        guard let session = connection.session else {
            html.span("muted", connection.closed?.encrypted == true ? "encrypted" : "plaintext only")
            return
        }
        let both: Set<HAPDirection> = [.controllerToAccessory, .accessoryToController]
        if session.decryptable == both {
            html.span("ok", "decrypted")
        } else if session.decryptable.isEmpty {
            html.span("bad", "not decrypted")
        } else {
            html.span("warn", "decrypted " + session.decryptable.map(\.description).sorted().joined(separator: ", ") + " only")
        }
        var detail = " after \(session.trigger.rawValue)"
        if let source = session.keySource { detail += " with \(source)" }
        html.text(detail)
        if let reason = session.undecryptableWording {
            html.markup("<br>")
            html.span("muted", limits.clipped(reason))
        }
        for direction in HAPDirection.allCases {
            guard let outcome = connection.joins[direction] else { continue }
            let join = SessionJoinEvent(connection: connection.info, direction: direction, outcome: outcome)
            html.markup("<br>")
            html.span(outcome.isJoined ? "muted" : "warn", limits.clipped("\(direction): " + join.wording))
        }
        for problem in connection.sessionProblems {
            html.markup("<br>")
            html.span("bad", limits.clipped("\(problem.kind.rawValue) (\(problem.direction)"
                + (problem.frameCounter.map { ", frame \($0)" } ?? "") + "): " + problem.message))
        }
    }

    private func writePairingOutcomes(_ html: inout HTMLWriter) {
        let procedures: [PairingProcedure] = [.pairSetup, .pairVerify, .pairings]
        let rows = procedures.compactMap { procedure in model.counts.pairingExchanges[procedure].map { (procedure, $0) } }
        guard !rows.isEmpty else {
            html.element("p", ["class": "muted"], text: "No pairing exchange in the capture.")
            return
        }
        html.table(class: "compact", headers: ["Procedure", "Succeeded", "Failed", "Incomplete"], numericColumns: [1, 2, 3]) { html in
            for (procedure, tally) in rows {
                html.markup("<tr>")
                html.cell(procedure.description)
                html.numberCell(String(tally.succeeded))
                html.element("td", ["class": tally.failed > 0 ? "num bad" : "num"], text: String(tally.failed))
                html.element("td", ["class": tally.incomplete > 0 ? "num warn" : "num"], text: String(tally.incomplete))
                html.markup("</tr>\n")
            }
        }
    }

    private func writeActivity(_ html: inout HTMLWriter) {
        let counts = model.counts
        let kinds: [CharacteristicActivity.Kind] = [.read, .write, .event, .subscribe, .unsubscribe]
        let activity = kinds.map { "\(HTMLFormat.count(counts.characteristicActivity[$0] ?? 0)) \($0.rawValue)" }.joined(separator: " · ")
        html.element("p", text: "Characteristics: " + activity + ".")
        html.element("p", text: "HTTP messages: \(HTMLFormat.count(counts.httpMessages)), of which \(HTMLFormat.count(counts.decryptedHTTPMessages)) decrypted from HAP sessions.")
        var discovery = "mDNS: \(HTMLFormat.count(counts.advertisements, "advertisement")) (\(HTMLFormat.count(counts.goodbyes, "goodbye")))"
        if counts.matterAdvertisements > 0 { discovery += ", \(HTMLFormat.count(counts.matterAdvertisements)) of them Matter" }
        html.element("p", text: discovery + ".")
    }

    private func writeSeverityCounts(_ html: inout HTMLWriter, findings: [Finding]) {
        guard !findings.isEmpty else {
            html.element("p", ["class": "ok"], text: "No findings.")
            return
        }
        html.markup("<p class=\"chips\">")
        for severity in Severity.allCases.reversed() {
            let count = findings.count { $0.severity == severity }
            html.element("span", ["class": "badge sev-\(severity)"], text: "\(count) \(severity)")
        }
        html.markup(" <a href=\"#findings\">details</a></p>\n")
    }

    private func writeProblems(_ html: inout HTMLWriter) {
        let counts = model.problemCounts.sorted { $0.key.rawValue < $1.key.rawValue }
        let limitsReached = (model.summary?.limitsReached ?? [:]).sorted { $0.key < $1.key }
        guard !counts.isEmpty || !limitsReached.isEmpty else { return }
        html.markup("<h3>What could not be analysed</h3>\n")
        if !counts.isEmpty {
            html.element("p", text: counts.map { "\($0.key): \($0.value)" }.joined(separator: " · "))
            html.table(headers: ["Packet", "Kind", "Problem"]) { html in
                for (packet, problem) in model.problems.prefix(limits.problems) {
                    html.markup("<tr>")
                    html.packetCell(packet?.number)
                    html.cell(problem.kind.rawValue)
                    html.cell(limits.clipped(problem.message))
                    html.markup("</tr>\n")
                }
            }
            html.omissionNote(max(0, model.problems.count - limits.problems) + model.counts.droppedProblems, "problem", "problems",
                              reason: "the table lists the first \(HTMLFormat.count(limits.problems)); the counts above include every one")
        }
        if !limitsReached.isEmpty {
            html.element("p", ["class": "warn"], text: "Limits reached: " + limitsReached.map { "\($0.key) × \($0.value)" }.joined(separator: ", ")
                + ". Raise them with --limit NAME=VALUE to analyse everything.")
        }
    }

    // MARK: Wording

    static func category(name: String?, identifier: UInt64?) -> String {
        switch (name, identifier) {
        case let (name?, identifier?): "\(name) (\(identifier))"
        case let (name?, nil): name
        case let (nil, identifier?): "unknown (\(identifier))"
        case (nil, nil): "—"
        }
    }

    /// `0x1 not paired`, as the `sf` TXT key is read (HAP: Bonjour TXT record, status flags).
    static func describe(_ flags: HAPStatusFlags) -> String {
        var names: [String] = []
        if flags.contains(.notPaired) { names.append("not paired") }
        if flags.contains(.wiFiNotConfigured) { names.append("Wi-Fi not configured") }
        if flags.contains(.problemDetected) { names.append("problem detected") }
        if !flags.subtracting(.known).isEmpty { names.append("unknown bits") }
        return "0x" + String(flags.rawValue, radix: 16) + " " + (names.isEmpty ? "paired" : names.joined(separator: ", "))
    }
}
