import HAPEvents
import HAPJSON

/// `hapscope stats`: per HAP connection, packets, bytes, retransmissions, out-of-order segments
/// and gaps in each direction, and the frames of encrypted sessions; then the totals and the
/// resource limits that were reached.
public final class StatsReport: EndOfRunReport {
    public var clock = CaptureClock()
    let output: ReportOutput
    let settings: ReportSettings
    private let limits: AnalysisLimits
    private let retentionLimit: Int
    private var connections: [ConnectionSummary] = []
    private var droppedConnections = 0
    private var inputs: [InputOpenedEvent] = []
    private var totals: InputSummary?

    /// - Parameters:
    ///   - limits: the bounds in force, shown beside the ones reached.
    ///   - retentionLimit: connections kept for the table; more are counted, not listed.
    public init(output: ReportOutput, settings: ReportSettings, limits: AnalysisLimits = AnalysisLimits(), retentionLimit: Int = 10_000) {
        self.output = output
        self.settings = settings
        self.limits = limits
        self.retentionLimit = retentionLimit
    }

    public func take(_ event: HAPEvent) {
        switch event.kind {
        case .connectionClosed(let summary):
            if connections.count < retentionLimit { connections.append(summary) } else { droppedConnections += 1 }
        case .inputOpened(let input):
            inputs.append(input)
        case .inputEnded(let summary):
            totals = summary
        default:
            break
        }
    }

    // MARK: Text

    /// `findings` have no place in it.
    func writeText(findings _: [Finding]?) {
        let style = settings.style
        var lines: [String] = []
        if let totals {
            lines.append(style.paint("totals", .heading) + "  \(totals.packets) packets, \(totals.bytes) bytes; "
                + "\(totals.tcpConnections) TCP connections (\(totals.hapConnections) HAP); \(totals.udpDatagrams) UDP datagrams "
                + "(\(totals.mdnsMessages) mDNS); \(totals.otherPackets) other; \(totals.undecodablePackets) undecodable")
        }
        lines.append("")
        lines.append(style.paint("HAP connections", .heading) + " \(connections.count + droppedConnections)"
            + (droppedConnections > 0 ? " (\(droppedConnections) not listed)" : ""))
        var rows: [[String]] = [["conn", "endpoints", "dir", "packets", "bytes", "retrans", "out-of-order", "gaps", "gap bytes", "frames", "largest", "oversize", "decrypted"]]
        // HAP over CoAP has messages and sealed bodies, HAP over Bluetooth LE ATT and HAP PDUs,
        // not segments: a table each of their own.
        var coap: [(ConnectionSummary, ConnectionSummary.CoAPCounters)] = []
        var ble: [(ConnectionSummary, ConnectionSummary.BLECounters)] = []
        for connection in connections {
            switch connection.carried {
            case .http: break
            case .coap(let counters): coap.append((connection, counters)); continue
            case .bluetoothLE(let counters): ble.append((connection, counters)); continue
            }
            for (index, direction) in HAPDirection.allCases.enumerated() {
                let tcp = connection.tcp[direction]
                let frames = connection.frames[direction]
                rows.append(Self.connectionCells(connection, line: index) + [
                    direction == .controllerToAccessory ? "c→a" : "a→c",
                    tcp.map { "\($0.packets)" } ?? "", tcp.map { "\($0.payloadBytes)" } ?? "",
                    tcp.map { "\($0.retransmissions)" } ?? "", tcp.map { "\($0.outOfOrderSegments)" } ?? "",
                    tcp.map { "\($0.gaps)" } ?? "", tcp.map { "\($0.gapBytes)" } ?? "",
                    frames.map { "\($0.frames)" } ?? "–", frames.map { "\($0.largestFrame)" } ?? "–",
                    frames.map { "\($0.oversizeFrames)" } ?? "–",
                    connection.encrypted ? (connection.decrypted.contains(direction) ? "yes" : "no") : "–",
                ])
            }
        }
        if rows.count > 1 {
            let table = SummaryText.aligned(rows, indent: "  ", rightAligned: Set(3 ... 11))
            lines.append(style.paint(table[0], .dim))
            lines += table.dropFirst()
        }
        if !coap.isEmpty {
            lines += coapRows(coap, style: style)
        }
        if !ble.isEmpty {
            lines += bleRows(ble, style: style)
        }
        lines.append("")
        let reached = totals?.limitsReached.sorted { $0.key < $1.key } ?? []
        if reached.isEmpty {
            lines.append(style.paint("limits", .heading) + "  none reached")
        } else {
            lines.append(style.paint("limits reached", .heading))
            for (name, count) in reached {
                let value = AnalysisLimit.named(name).map { " (limit \($0.describe($0.value(in: limits))))" } ?? ""
                lines.append("  " + style.paint("\(name)\(value)", .warning) + ": \(count) time\(count == 1 ? "" : "s")")
            }
        }
        output.write(lines.joined(separator: "\n") + "\n")
    }

    /// The first two cells of a connection's two lines: its number and endpoints, then its
    /// packets and how it ended.
    private static func connectionCells(_ connection: ConnectionSummary, line: Int) -> [String] {
        line == 0
            ? ["#\(connection.connection.id)", "\(connection.connection.controller) → \(connection.connection.accessory)"]
            : ["", "  #\(connection.firstPacket.number)–#\(connection.lastPacket.number), \(connection.closingWording)"]
    }

    /// One row per HAP-over-Bluetooth-LE connection: its ATT and HAP PDUs, then per direction
    /// whether its HAP PDUs were decrypted.
    private func bleRows(_ connections: [(ConnectionSummary, ConnectionSummary.BLECounters)], style: TextStyle) -> [String] {
        var rows: [[String]] = [["conn", "endpoints", "ATT PDUs", "HAP PDUs", "dir", "decrypted"]]
        for (connection, counters) in connections {
            for (index, direction) in HAPDirection.allCases.enumerated() {
                rows.append(Self.connectionCells(connection, line: index) + [
                    index == 0 ? "\(counters.attPDUs)" : "", index == 0 ? "\(counters.hapPDUs)" : "",
                    direction == .controllerToAccessory ? "c→a" : "a→c",
                    connection.encrypted ? (connection.decrypted.contains(direction) ? "yes" : "no") : "–",
                ])
            }
        }
        let table = SummaryText.aligned(rows, indent: "  ", rightAligned: [2, 3])
        return [style.paint(table[0], .dim)] + table.dropFirst()
    }

    /// One row per HAP-over-CoAP connection: its CoAP messages, retransmissions and PDUs, then
    /// per direction its sealed bodies.
    private func coapRows(_ connections: [(ConnectionSummary, ConnectionSummary.CoAPCounters)], style: TextStyle) -> [String] {
        var rows: [[String]] = [["conn", "endpoints", "messages", "retrans", "PDUs", "dir", "bodies", "largest", "decrypted"]]
        for (connection, counters) in connections {
            for (index, direction) in HAPDirection.allCases.enumerated() {
                let bodies = connection.frames[direction]
                rows.append(Self.connectionCells(connection, line: index) + [
                    index == 0 ? "\(counters.messages)" : "", index == 0 ? "\(counters.retransmissions)" : "",
                    index == 0 ? "\(counters.pdus)" : "",
                    direction == .controllerToAccessory ? "c→a" : "a→c",
                    bodies.map { "\($0.frames)" } ?? "–", bodies.map { "\($0.largestFrame)" } ?? "–",
                    connection.encrypted ? (connection.decrypted.contains(direction) ? "yes" : "no") : "–",
                ])
            }
        }
        let table = SummaryText.aligned(rows, indent: "  ", rightAligned: [2, 3, 4, 6, 7])
        return [style.paint(table[0], .dim)] + table.dropFirst()
    }

    // MARK: JSON

    private func writeConnection(_ summary: ConnectionSummary, into writer: inout JSONWriter) {
        EventJSON.writeConnectionSummary(summary, clock: clock, into: &writer)
    }

    private func writeLimits(into writer: inout JSONWriter) {
        writer.object("limits") { writer in
            writer.object("configured") { writer in
                for limit in AnalysisLimit.all { writer.member(limit.name.rawValue, limit.describe(limit.value(in: limits))) }
            }
            writer.object("reached") { writer in
                for (name, count) in (totals?.limitsReached ?? [:]).sorted(by: { $0.key < $1.key }) { writer.member(name.rawValue, count) }
            }
        }
    }

    func writeJSON(findings _: [Finding]?) {
        writeJSONDocument(command: "stats", to: output) { writer in
            EventJSON.writeInputs(inputs, into: &writer)
            writer.objects("connections", connections) { writer, summary in writeConnection(summary, into: &writer) }
            writer.member("connectionsNotListed", droppedConnections)
            if let totals { writer.object("totals") { EventJSON.writeTotals(totals, into: &$0) } }
            writeLimits(into: &writer)
        }
    }

    func writeNDJSON(findings _: [Finding]?) {
        let lines = NDJSONLines(output: output)
        lines.header(command: "stats")
        for summary in connections {
            output.write(EventJSON.encode(HAPEvent(packet: summary.lastPacket, kind: .connectionClosed(summary)), clock: clock) + "\n")
        }
        lines.line("stats") { writer in
            writer.member("connectionsNotListed", droppedConnections)
            if let totals { writer.object("totals") { EventJSON.writeTotals(totals, into: &$0) } }
            writeLimits(into: &writer)
        }
    }
}
