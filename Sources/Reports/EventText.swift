import DNS
import HAPEvents
import HTTP1
import Packets
import WireParsing

/// One line per event, tcpdump style: when, which packet, what kind of thing, what happened.
///
/// `    1.767669     #38  session #2  encrypted from here (pair-verify M4); decrypting both directions
/// with PAIR_VERIFY_SHARED_SECRET`.
/// Used by `events` and `live`, and by the other text reports for the lines they share (problems,
/// session starts).
enum EventText {
    /// The leading columns of a line: time and packet number, padded so that columns align.
    static func prefix(_ packet: PacketInfo?, clock: CaptureClock, style: TextStyle) -> String {
        guard let packet else { return String(repeating: " ", count: 20) }
        let time = padLeft(clock.relativeText(packet.timestamp), 12)
        return style.paint(time + padLeft("#\(packet.number)", 8), .dim)
    }

    /// The whole line for an event.
    static func line(_ event: HAPEvent, clock: CaptureClock, style: TextStyle) -> String {
        let (label, text, role) = describe(event, style: style)
        let paintedLabel = style.paint(padRight(label, 12), role)
        return prefix(event.packet, clock: clock, style: style) + "  " + paintedLabel + text
    }

    /// The label column, the text of an event, and the label's color.
    private static func describe(_ event: HAPEvent, style: TextStyle) -> (String, String, TextStyle.Role) {
        switch event.kind {
        case .inputOpened(let input):
            return ("input", "reading \(TerminalText.sanitized(input.name)) (\(input.linkType))", .heading)
        case .problem(let problem):
            return ("problem", style.paint(TerminalText.sanitized(problem.message), .warning), .warning)
        case .advertisement(let advertisement):
            return ("mdns", advertisementLine(advertisement, style: style), .heading)
        case .bleAdvertisement(let advertisement):
            return ("ble adv", bleAdvertisementLine(advertisement, style: style), .heading)
        case .mdnsQuery(let query):
            return ("mdns", queryLine(query), .dim)
        case .connectionOpened(let opened):
            var text = "opened \(opened.connection.controller) → \(opened.connection.accessory)"
            if let device = opened.deviceID { text += " (accessory \(TerminalText.sanitized(device)))" }
            text += opened.handshakeSeen ? "" : ", already open when the capture started"
            return ("conn #\(opened.connection.id)", text, .heading)
        case .httpMessage(let http):
            return ("http #\(http.connection.id)", httpLine(http), http.direction == .controllerToAccessory ? .controller : .accessory)
        case .pairingMessage(let message):
            return ("pair #\(message.connection.id)", pairingMessageLine(message, style: style), message.direction == .controllerToAccessory ? .controller : .accessory)
        case .pairingExchange(let exchange):
            var text = "\(exchange.procedure) " + style.paint(PairingText.outcome(exchange.outcome), PairingText.role(exchange.outcome))
            if let summary = PairingText.pairingsSummary(exchange) { text += " — " + TerminalText.sanitized(summary) }
            let failed = exchange.checks.filter { $0.outcome == .failed }
            if !failed.isEmpty { text += style.paint(" (failed: \(failed.map(\.name).joined(separator: ", ")))", .bad) }
            return ("pair #\(exchange.connection.id)", text, .heading)
        case .sessionStarted(let start):
            return ("session #\(start.connection.id)", sessionLine(start), start.decryptable.isEmpty ? .warning : .good)
        case .sessionJoined(let join):
            return ("session #\(join.connection.id)", "\(arrow(join.direction)) " + join.wording, join.outcome.isJoined ? .good : .warning)
        case .sessionProblem(let problem):
            return ("session #\(problem.connection.id)",
                    style.paint("\(problem.kind.rawValue) \(arrow(problem.direction)) ", .bad) + TerminalText.sanitized(problem.message), .bad)
        case .decryptedData(let data):
            return ("session #\(data.connection.id)", "\(arrow(data.direction)) \(plural(data.plaintext.count, "byte")) decrypted", .dim)
        case .accessoryDatabase(let database):
            return ("db #\(database.connection.id)", databaseLine(database), .heading)
        case .databaseDump(let dump):
            let read = dump.dump.map { "\(plural($0.database.accessories.count, "accessory")), \($0.origin)" }
                ?? "not a database: \(dump.error?.description ?? "unreadable")"
            return ("dump", "\(TerminalText.sanitized(dump.name)): \(TerminalText.sanitized(read))", .heading)
        case .characteristic(let activity):
            return ("char #\(activity.connection.id)", activityLine(activity), .dim)
        case .connectionClosed(let summary):
            return ("conn #\(summary.connection.id)", "\(summary.closingWording), " + Self.carried(summary), .dim)
        case .inputEnded(let summary):
            return ("end", plural(summary.packets, "packet") + ", " + plural(summary.hapConnections, "HAP connection") + ", "
                + plural(summary.mdnsMessages, "mDNS message"), .heading)
        }
    }

    /// What a connection carried, in its transport's units: `34 HTTP messages`, over CoAP
    /// `66 CoAP messages (2 retransmissions), 109 PDUs`, over Bluetooth LE `412 ATT PDUs, 40 HAP PDUs`.
    static func carried(_ summary: ConnectionSummary) -> String {
        switch summary.carried {
        case .http(let messages):
            return plural(messages, "HTTP message")
        case .coap(let coap):
            let again = coap.retransmissions > 0 ? " (\(plural(coap.retransmissions, "retransmission")))" : ""
            return plural(coap.messages, "CoAP message") + again + ", " + plural(coap.pdus, "PDU")
        case .bluetoothLE(let ble):
            return plural(ble.attPDUs, "ATT PDU") + ", " + plural(ble.hapPDUs, "HAP PDU")
        }
    }

    /// `1 packet`, `2 packets`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `→` for the controller's messages, `←` for the accessory's.
    static func arrow(_ direction: HAPDirection) -> String {
        direction == .controllerToAccessory ? "→" : "←"
    }

    static func advertisementLine(_ event: AdvertisementEvent, style: TextStyle) -> String {
        let service = event.service
        var text = service.isGoodbye ? "goodbye " : (event.isResponse ? "announce " : "probe ")
        text += TerminalText.sanitized(service.instance.instanceText) + " (\(service.serviceType.serviceAndTransport))"
        if let port = service.location?.port {
            let address = service.addresses.first.map { "\($0.address)" } ?? "\(event.sender.address)"
            text += " " + Endpoint(address: IPAddress(address) ?? event.sender.address, port: port).description
        }
        if let hap = service.hap {
            let keys = ["id", "c#", "sf", "ci"]
            let fields = hap.fields.filter { keys.contains($0.key.lowercased()) }
            text += fields.map { " \($0.key)=\(TerminalText.sanitized($0.value ?? ""))" }.joined()
        }
        let significant = event.changes.filter(\.isSignificant)
        if !significant.isEmpty {
            let changes = significant.map { "\($0.key) \($0.old ?? "–")→\($0.new ?? "–")" }.joined(separator: ", ")
            text += style.paint(" changed " + TerminalText.sanitized(changes), .changed)
        }
        let problems = AdvertisementPresentation(event).diagnostics.count
        if problems > 0 { text += style.paint(" (\(problems) diagnostic\(problems == 1 ? "" : "s"))", .warning) }
        return text
    }

    /// `regular 1A:2B:3C:4D:5E:6F from E1:2B:3C:4D:5E:6F sf=0 ci=5 gsn=3 c#=1 changed gsn 2→3`.
    static func bleAdvertisementLine(_ event: BLEAdvertisementEvent, style: TextStyle) -> String {
        switch event.advertisement {
        case .regular(let regular):
            var text = "regular \(regular.deviceIDText) from \(event.advertiser)"
            text += " sf=\(regular.statusFlags) (\(regular.isPaired ? "paired" : "not paired")) ci=\(regular.category)"
                + " gsn=\(regular.globalStateNumber) c#=\(regular.configurationNumber) cv=\(regular.compatibleVersion)"
            if let hash = regular.setupHash { text += " sh=\(Hex.encode(hash))" }
            if let previous = event.previous, !event.changedFields.isEmpty {
                let changes = event.changedFields.map { "\($0.rawValue) \(previous.value(of: $0) ?? "–")→\(regular.value(of: $0) ?? "–")" }
                text += style.paint(" changed " + changes.joined(separator: ", "), .changed)
            }
            if let matches = event.setupHash?.matches {
                text += matches ? style.paint(" (setup hash matches)", .good) : style.paint(" (setup hash does not match the setup ID)", .bad)
            }
            return text
        case .encryptedNotification(let notification):
            let text = "encrypted notification from \(event.advertiser), advertising ID \(Hex.encode(notification.advertisingID)), "
                + "\(notification.encryptedPayload.count) sealed bytes"
            switch event.broadcast {
            case .opened(let deviceID, let gsn, let iid, let value)?:
                return text + style.paint(" opened: \(deviceID) gsn=\(gsn) iid=\(iid) value \(Hex.encode(value))", .good)
            case .noKey?: return text + " (no BROADCAST_KEY)"
            case .notOpened(let keys, let gsns)?: return text + style.paint(" not opened (\(keys) keys, \(gsns) GSNs tried)", .bad)
            case nil: return text
            }
        }
    }

    static func queryLine(_ query: DiscoveryQueryEvent) -> String {
        let questions = query.queries.map { question in
            TerminalText.sanitized(question.name.displayText) + " \(question.type)" + (question.prefersUnicastResponse ? " QU" : "")
        }
        return "\(query.sender.address) asks for " + questions.joined(separator: ", ")
    }

    static func httpLine(_ http: HTTPMessageEvent) -> String {
        var text = arrow(http.direction) + " " + TerminalText.sanitized(HTTPText.startLine(http.message))
        let body = http.message.body.count
        if body > 0 { text += " (\(body)-byte body)" }
        if http.encrypted { text += " [decrypted]" }
        return text
    }

    static func pairingMessageLine(_ message: PairingMessageEvent, style: TextStyle) -> String {
        var text = arrow(message.direction) + " \(message.procedure) \(message.state?.description ?? "M?")"
        if let response = message.content?.errorResponse {
            text += style.paint(" Error=\(response.error.map { "\($0)" } ?? "?")", .bad)
        }
        if !message.diagnostics.isEmpty {
            text += style.paint(" (\(message.diagnostics.count) diagnostic\(message.diagnostics.count == 1 ? "" : "s"))", .warning)
        }
        return text
    }

    static func sessionLine(_ start: SessionStartEvent) -> String {
        var text = "encrypted from here (\(start.trigger.rawValue)); "
        switch start.decryptable.count {
        case 2: text += "decrypting both directions"
        case 1: text += "decrypting \(start.decryptable.first!) only"
        default: text += "cannot decrypt"
        }
        if let source = start.keySource { text += " with \(source)" }
        if let match = start.keyLogMatch { text += " of " + match.wording }
        if let reason = start.undecryptableWording { text += ": " + TerminalText.sanitized(reason) }
        if let keys = start.revealedKeys {
            for direction in HAPDirection.allCases {
                if let key = keys[direction] { text += "\n" + String(repeating: " ", count: 34) + "\(direction) key \(key)" }
            }
        }
        return text
    }

    static func databaseLine(_ event: AccessoryDatabaseEvent) -> String {
        if let error = event.error {
            return "/accessories body (\(event.bodyByteCount) bytes) unreadable: " + TerminalText.sanitized(error.description)
        }
        guard let database = event.database else { return "/accessories" }
        if let borrowed = event.source.wording {
            return "no /accessories in this capture for \(event.connection.accessory): typed by \(borrowed)"
        }
        let services = database.accessories.reduce(0) { $0 + $1.services.count }
        let characteristics = database.accessories.reduce(0) { $0 + $1.services.reduce(0) { $0 + $1.characteristics.count } }
        var text = "/accessories: \(database.accessories.count) accessories, \(services) services, \(characteristics) characteristics"
        if !database.diagnostics.isEmpty { text += ", \(database.diagnostics.count) diagnostics" }
        if let diff = event.diff, !diff.isEmpty { text += ", \(diff.changes.count) changes since the last one" }
        return text
    }

    static func activityLine(_ activity: CharacteristicActivity) -> String {
        var text = "\(activity.kind.rawValue) \(activity.id)"
        if let name = activity.name { text += " " + TerminalText.sanitized(name) }
        if let value = activity.value { text += " = " + ValueText.describe(value, type: activity.type, unit: activity.unit) }
        if let status = activity.status { text += " status \(status)" }
        if !activity.answered { text += " (unanswered)" }
        return text
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    static func padRight(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
