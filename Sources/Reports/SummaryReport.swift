import TLV8
import HAPEvents
import HAPModel
import HAPJSON
import Packets

/// `hapscope summary`, the default command: one screen on what the capture shows, with the
/// other commands named where a list was cut short.
///
/// Built on `CaptureModel`, which keeps memory bounded whatever the capture's size. The findings
/// line is filled from the audit's findings handed to `finish(findings:)`; without them (nil)
/// there is no findings line.
public final class SummaryReport: EndOfRunReport {
    public var clock = CaptureClock()
    let output: ReportOutput
    let settings: ReportSettings
    private let model: CaptureModel
    /// How many entries each section lists in text before pointing to the command that lists all.
    public var sectionLimit = 12

    public init(output: ReportOutput, settings: ReportSettings, retentionLimit: Int = 10_000) {
        self.output = output
        self.settings = settings
        model = CaptureModel(retentionLimit: retentionLimit)
    }

    public func take(_ event: HAPEvent) {
        model.consume(event)
    }

    // MARK: Text

    func writeText(findings: [Finding]?) {
        let text = SummaryText(model: model, clock: clock, style: settings.style, limit: sectionLimit)
        output.write(text.lines(findings: findings).joined(separator: "\n") + "\n")
    }

    // MARK: JSON

    func writeJSON(findings: [Finding]?) {
        writeJSONDocument(command: "summary", to: output) { writer in
            EventJSON.writeInputs(model.inputs, into: &writer)
            if let summary = model.summary {
                writer.object("totals") { writer in EventJSON.writeTotals(summary, into: &writer) }
            }
            writer.objects("accessories", model.accessories) { writer, accessory in writeAccessory(accessory, into: &writer) }
            writer.objects("connections", model.connections) { writer, connection in writeConnection(connection, into: &writer) }
            writer.object("pairing") { writer in
                writePairingCounts(into: &writer)
                writer.array("exchanges", model.exchanges) { writer, exchange in
                    EventJSON.write(HAPEvent(packet: exchange.steps.last?.packet, kind: .pairingExchange(exchange)), clock: clock, into: &writer)
                }
            }
            writeCounts(into: &writer)
            writer.array("problems", model.problems) { writer, entry in
                EventJSON.write(HAPEvent(packet: entry.packet, kind: .problem(entry.problem)), clock: clock, into: &writer)
            }
            if let findings { FindingJSON.writeFindings(findings, clock: clock, into: &writer) }
        }
    }

    func writeNDJSON(findings: [Finding]?) {
        let lines = NDJSONLines(output: output)
        lines.header(command: "summary")
        for input in model.inputs {
            lines.line("input-opened") { EventJSON.writeInput(input, into: &$0) }
        }
        for accessory in model.accessories { lines.line("accessory") { writeAccessory(accessory, into: &$0) } }
        for connection in model.connections { lines.line("connection") { writeConnection(connection, into: &$0) } }
        for exchange in model.exchanges {
            output.write(EventJSON.encode(HAPEvent(packet: exchange.steps.last?.packet, kind: .pairingExchange(exchange)), clock: clock) + "\n")
        }
        for entry in model.problems {
            output.write(EventJSON.encode(HAPEvent(packet: entry.packet, kind: .problem(entry.problem)), clock: clock) + "\n")
        }
        for finding in findings ?? [] { FindingJSON.writeLine(finding, clock: clock, to: output) }
        lines.line("summary") { writer in
            if let summary = model.summary {
                writer.object("totals") { writer in EventJSON.writeTotals(summary, into: &writer) }
            }
            writer.object("pairing") { writer in writePairingCounts(into: &writer) }
            writeCounts(into: &writer)
            if let findings { writer.member("findings", findings.count) }
        }
    }

    private func writeAccessory(_ accessory: CaptureModel.Accessory, into writer: inout JSONWriter) {
        writer.member("deviceID", accessory.deviceID)
        writer.member("name", accessory.name)
        writer.member("instance", accessory.instanceName)
        writer.member("model", accessory.model)
        writer.member("category", accessory.categoryIdentifier)
        writer.member("categoryName", accessory.categoryName)
        writer.member("configurationNumber", accessory.configurationNumber)
        writer.member("statusFlags", accessory.statusFlags?.rawValue)
        writer.member("paired", accessory.statusFlags.map { !$0.contains(.notPaired) })
        writer.member("endpoints", strings: accessory.endpoints.map(\.description))
        writer.member("advertisements", accessory.advertisements)
        writer.member("firstSeenPacket", accessory.firstSeen?.number)
        writer.member("databaseVersions", accessory.databaseVersions)
        writer.member("databaseSource", accessory.databaseSource?.jsonName ?? nil)
        writer.member("databaseSourceName", accessory.databaseSource?.origin)
        writer.array("connections", accessory.connectionIDs) { writer, id in writer.integer(Int64(id)) }
        writer.objects("characteristics", accessory.characteristics.sorted { $0.key < $1.key }) { writer, entry in
            writer.member("characteristic", entry.key.description)
            writer.member("name", entry.value.name)
            writer.member("reads", entry.value.reads)
            writer.member("writes", entry.value.writes)
            writer.member("events", entry.value.events)
            writer.member("lastValue", entry.value.lastValue?.value.jsonValue)
            writer.member("lastStatus", entry.value.lastStatus?.rawValue)
        }
    }

    private func writeConnection(_ connection: CaptureModel.Connection, into writer: inout JSONWriter) {
        EventJSON.writeConnection(connection.info, into: &writer)
        writer.member("deviceID", connection.deviceID)
        writer.member("openedPacket", connection.opened?.number)
        writer.member("handshakeSeen", connection.handshakeSeen)
        writer.member("httpMessages", connection.httpMessages)
        writer.member("pairingExchanges", connection.pairingExchanges)
        if let session = connection.session {
            writer.object("session") { writer in
                writer.member("trigger", session.trigger.rawValue)
                EventJSON.writeDirections("decryptable", session.decryptable, into: &writer)
                writer.member("keySource", session.keySource?.rawValue)
                writer.member("reason", session.undecryptableWording)
            }
        }
        writer.objects("sessionProblems", connection.sessionProblems) { writer, problem in
            writer.member("direction", problem.direction.rawValue)
            writer.member("kind", problem.kind.rawValue)
            writer.member("frameCounter", problem.frameCounter)
            writer.member("message", problem.message)
        }
        if let closed = connection.closed {
            writer.member("closeReason", closed.reason.wording)
            writer.member("lastPacket", closed.lastPacket.number)
        }
    }

    private func writePairingCounts(into writer: inout JSONWriter) {
        writer.object("counts") { writer in
            for procedure in [PairingProcedure.pairSetup, .pairVerify, .pairings] {
                guard let tally = model.counts.pairingExchanges[procedure] else { continue }
                writer.object(procedure.rawValue) { writer in
                    writer.member("succeeded", tally.succeeded)
                    writer.member("failed", tally.failed)
                    writer.member("incomplete", tally.incomplete)
                }
            }
        }
    }

    private func writeCounts(into writer: inout JSONWriter) {
        let counts = model.counts
        writer.object("counts") { writer in
            writer.member("advertisements", counts.advertisements)
            writer.member("goodbyes", counts.goodbyes)
            writer.member("matterAdvertisements", counts.matterAdvertisements)
            writer.member("httpMessages", counts.httpMessages)
            writer.member("decryptedHTTPMessages", counts.decryptedHTTPMessages)
            writer.member("sessions", counts.sessions)
            writer.member("decryptedSessions", counts.decryptedSessions)
            writer.object("sessionProblems") { writer in
                for (kind, count) in counts.sessionProblems.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    writer.member(kind.rawValue, count)
                }
            }
            writer.object("characteristicActivity") { writer in
                for kind in SummaryText.activityKinds {
                    writer.member(kind.rawValue, counts.characteristicActivity[kind] ?? 0)
                }
            }
            writer.object("problems") { writer in
                for (kind, count) in model.problemCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    writer.member(kind.rawValue, count)
                }
            }
            writer.member("droppedConnections", counts.droppedConnections)
            writer.member("droppedExchanges", counts.droppedExchanges)
            writer.member("droppedProblems", counts.droppedProblems)
        }
    }
}
