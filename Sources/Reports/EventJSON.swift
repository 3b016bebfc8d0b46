import HAPEvents
import HAPJSON
import Packets

/// The JSON form of every event of the analysis (docs/json.md, "Events").
///
/// One encoding serves every JSON and NDJSON report, so a field is spelled the same wherever it
/// appears. The output depends only on the event and the clock: members come in a fixed order,
/// sets and dictionaries are written sorted, and times are exact decimals, so that the NDJSON of
/// an input is the same byte for byte on every run (`hapscope check` compares it).
public enum EventJSON {
    /// The version of the JSON schema; bumped when a field changes meaning or disappears.
    public static let schema = "hapscope/1"

    /// The stable `type` of an event's JSON object.
    public static func typeName(_ kind: HAPEvent.Kind) -> String {
        switch kind {
        case .inputOpened: "input-opened"
        case .problem: "problem"
        case .advertisement: "advertisement"
        case .bleAdvertisement: "ble-advertisement"
        case .mdnsQuery: "mdns-query"
        case .connectionOpened: "connection-opened"
        case .httpMessage: "http-message"
        case .pairingMessage: "pairing-message"
        case .pairingExchange: "pairing-exchange"
        case .sessionStarted: "session-started"
        case .sessionJoined: "session-joined"
        case .sessionProblem: "session-problem"
        case .decryptedData: "decrypted-data"
        case .accessoryDatabase: "accessory-database"
        case .databaseDump: "database-dump"
        case .characteristic: "characteristic"
        case .connectionClosed: "connection-closed"
        case .inputEnded: "input-ended"
        }
    }

    /// The event as one JSON object.
    public static func encode(_ event: HAPEvent, clock: CaptureClock) -> String {
        var writer = JSONWriter(reservingCapacity: 256)
        write(event, clock: clock, into: &writer)
        return writer.text
    }

    /// Writes the event as one JSON object: `type`, where it happened, then its own members.
    public static func write(_ event: HAPEvent, clock: CaptureClock, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("type", typeName(event.kind))
        writer.packetMembers(event.packet, clock: clock)
        switch event.kind {
        case .inputOpened(let input):
            writeInput(input, into: &writer)
        case .problem(let problem):
            writer.member("kind", problem.kind.rawValue)
            writer.member("message", problem.message)
        case .advertisement(let advertisement):
            writeAdvertisement(advertisement, into: &writer)
        case .bleAdvertisement(let advertisement):
            writeBLEAdvertisement(advertisement, into: &writer)
        case .mdnsQuery(let query):
            writeQuery(query, into: &writer)
        case .connectionOpened(let opened):
            writeConnection(opened.connection, into: &writer)
            writer.member("deviceID", opened.deviceID)
            writer.member("handshakeSeen", opened.handshakeSeen)
            writer.member("recognisedBy", opened.recognisedBy.rawValue)
            // HAP over IP, the first transport, is the default and not named.
            if opened.connection.transport.name != "ip" { writer.member("transport", opened.connection.transport.name) }
        case .httpMessage(let message):
            writeHTTPMessage(message, into: &writer)
        case .pairingMessage(let message):
            writePairingMessage(message, into: &writer)
        case .pairingExchange(let exchange):
            writePairingExchange(exchange, clock: clock, into: &writer)
        case .sessionStarted(let start):
            writeSessionStart(start, into: &writer)
        case .sessionJoined(let join):
            writeSessionJoin(join, into: &writer)
        case .sessionProblem(let problem):
            writeConnection(problem.connection, into: &writer)
            writer.member("direction", problem.direction.rawValue)
            writer.member("kind", problem.kind.rawValue)
            writer.member("frameCounter", problem.frameCounter)
            writer.member("message", problem.message)
        case .decryptedData(let data):
            writeConnection(data.connection, into: &writer)
            writer.member("direction", data.direction.rawValue)
            writer.member("bytes", data.plaintext.count)
        case .accessoryDatabase(let database):
            writeDatabaseEvent(database, into: &writer)
        case .databaseDump(let dump):
            writer.member("name", dump.name)
            writer.member("bytes", dump.byteCount)
            writer.member("origin", dump.dump?.origin.description)
            writer.member("error", dump.error?.description)
        case .characteristic(let activity):
            writeActivity(activity, clock: clock, into: &writer)
        case .connectionClosed(let summary):
            writeConnectionSummary(summary, clock: clock, into: &writer)
        case .inputEnded(let summary):
            writeTotals(summary, into: &writer)
        }
        writer.endObject()
    }

    // MARK: Shared pieces

    /// `connection`, `client` and `accessory`: the connection number (as in `hapscope stats`)
    /// and both endpoints as `ip:port`.
    static func writeConnection(_ connection: ConnectionInfo, into writer: inout JSONWriter) {
        writer.member("connection", connection.id)
        writer.member("client", connection.controller.description)
        writer.member("accessory", connection.accessory.description)
    }


    static func writeDirections(_ key: String, _ set: Set<HAPDirection>, into writer: inout JSONWriter) {
        writer.member(key, strings: HAPDirection.allCases.filter(set.contains).map(\.rawValue))
    }

    /// An input's name and link type (the `input-opened` event and the `inputs` of JSON documents).
    static func writeInput(_ input: InputOpenedEvent, into writer: inout JSONWriter) {
        writer.member("name", input.name)
        writer.member("linkType", input.linkType)
    }

    /// The `inputs` member of an end-of-run document: each input's name and link type.
    static func writeInputs(_ inputs: [InputOpenedEvent], into writer: inout JSONWriter) {
        writer.objects("inputs", inputs) { writer, input in writeInput(input, into: &writer) }
    }

    /// The run's totals (the `input-ended` event and the `totals` of JSON documents).
    static func writeTotals(_ summary: InputSummary, into writer: inout JSONWriter) {
        writer.member("packets", summary.packets)
        writer.member("bytes", summary.bytes)
        writer.member("firstPacketTime", summary.firstPacketTime.map(CaptureClock.iso8601))
        writer.member("lastPacketTime", summary.lastPacketTime.map(CaptureClock.iso8601))
        if let first = summary.firstPacketTime, let last = summary.lastPacketTime {
            writer.member("duration", seconds: CaptureClock.seconds(from: first, to: last))
        }
        writer.member("tcpConnections", summary.tcpConnections)
        writer.member("hapConnections", summary.hapConnections)
        writer.member("udpDatagrams", summary.udpDatagrams)
        writer.member("mdnsMessages", summary.mdnsMessages)
        writer.member("otherPackets", summary.otherPackets)
        writer.member("undecodablePackets", summary.undecodablePackets)
        writer.object("limitsReached") { writer in
            for (name, count) in summary.limitsReached.sorted(by: { $0.key < $1.key }) {
                writer.member(name.rawValue, count)
            }
        }
    }
}
