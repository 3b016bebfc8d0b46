import DNS
import HAPEvents

/// `hapscope discover`: every HAP and Matter advertisement over time with its TXT keys
/// explained, changes to `c#`, `s#` and `sf` highlighted, goodbyes, and who browsed.
///
/// The first sighting of an instance lists every TXT key; later ones list only what changed,
/// unless `verbose` asks for every key every time.
public final class DiscoveryReport: CaptureReport {
    public var clock = CaptureClock()
    private let output: ReportOutput
    private let settings: ReportSettings
    private let verbose: Bool
    private let stream: EventStreamWriter
    private var context: TextContext
    private var advertisements = 0
    private var queries = 0
    private var instances: Set<String> = []
    static let maximumInstancesCounted = 100_000

    public init(output: ReportOutput, settings: ReportSettings, verbose: Bool = false) {
        self.output = output
        self.settings = settings
        self.verbose = verbose
        stream = EventStreamWriter(output: output, format: settings.format, command: "discover")
        context = TextContext(output: output, style: settings.style)
    }

    public func take(_ event: HAPEvent) {
        switch event.kind {
        case .advertisement(let advertisement):
            advertisements += 1
            // Counted up to a bound: a flood of invented instance names must not grow memory.
            if instances.count < Self.maximumInstancesCounted {
                instances.insert(advertisement.service.name.escapedText.lowercased())
            }
        case .mdnsQuery:
            queries += 1
        default:
            break
        }
        guard settings.format == .text else {
            if stream.noteContext(event, clock: clock) { return }
            switch event.kind {
            case .advertisement, .mdnsQuery: stream.write(event, clock: clock)
            default: break
            }
            return
        }
        if context.handle(event, clock: clock) { return }
        switch event.kind {
        case .advertisement(let advertisement):
            writeAdvertisement(advertisement, event: event)
        case .mdnsQuery(let query):
            output.write(EventText.prefix(event.packet, clock: clock, style: settings.style) + "  "
                + settings.style.paint(EventText.padRight("query", 9), .dim) + EventText.queryLine(query) + "\n")
        default:
            return
        }
        output.endOfRecord()
    }

    private func writeAdvertisement(_ advertisement: AdvertisementEvent, event: HAPEvent) {
        let style = settings.style
        let service = advertisement.service
        let kind = service.isGoodbye ? "goodbye" : (advertisement.isResponse ? "announce" : "probe")
        var head = EventText.prefix(event.packet, clock: clock, style: style) + "  "
            + style.paint(EventText.padRight(kind, 9), service.isGoodbye ? .warning : .heading)
            + style.paint(TerminalText.sanitized(service.instance.instanceText), .heading)
            + "  \(service.serviceType.serviceAndTransport)"
        if let location = service.location {
            let addresses = service.addresses.map { "\($0.address)" }
            head += "  " + TerminalText.sanitized(location.target.displayText) + ":\(location.port)"
            if !addresses.isEmpty { head += " (" + addresses.joined(separator: ", ") + ")" }
        }
        head += style.paint("  from \(advertisement.sender.address)", .dim)
        if service.isGoodbye { head += style.paint("  TTL 0: leaving the network", .warning) }
        output.write(head + "\n")

        let indent = String(repeating: " ", count: 22)
        let changed = Dictionary(advertisement.changes.map { ($0.key.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let fields = EventJSON.explainedFields(service) ?? []
        let showAll = verbose || advertisement.isFirstSighting
        let shown = fields.filter { showAll || changed[$0.key.lowercased()] != nil }
        let keyWidth = min((shown.map { $0.key.count + ($0.value?.count ?? 0) + 1 }.max() ?? 0), 28)
        for field in shown {
            let pair = TerminalText.sanitized(field.value.map { "\(field.key)=\($0)" } ?? field.key)
            var text = EventText.padRight(pair, keyWidth + 1) + " " + TerminalText.sanitized(field.explanation)
            if let change = changed[field.key.lowercased()] {
                let note = " (was \(change.old.map(TerminalText.sanitized) ?? "absent"))"
                text = style.paint(text + note, change.isSignificant ? .changed : .warning)
            }
            output.write(indent + text + "\n")
        }
        for change in advertisement.changes where change.new == nil {
            output.write(indent + style.paint("\(change.key) removed (was \(TerminalText.sanitized(change.old ?? "")))", .changed) + "\n")
        }
        if !showAll, shown.isEmpty, !service.isGoodbye, service.txt != nil {
            output.write(indent + style.paint("TXT unchanged", .dim) + "\n")
        }
        if let matches = advertisement.setupHashMatches {
            output.write(indent + (matches
                ? style.paint("setup hash matches the setup ID given", .good)
                : style.paint("setup hash does not match the setup ID given", .bad)) + "\n")
        }
        for diagnostic in EventJSON.diagnostics(of: advertisement) {
            let offset = diagnostic.offset.map { "byte \($0): " } ?? ""
            output.write(indent + style.paint("! \(offset)\(TerminalText.sanitized(diagnostic.message))", .warning) + "\n")
        }
    }

    public func finish(findings: [Finding]?) {
        switch settings.format {
        case .text:
            context.writeFindings(findings)
            output.write(context.footer(
                "\(advertisements) advertisement\(advertisements == 1 ? "" : "s") of "
                    + (instances.count < Self.maximumInstancesCounted ? "" : "at least ")
                    + "\(instances.count) instance\(instances.count == 1 ? "" : "s"), "
                    + "\(queries) browsing quer\(queries == 1 ? "y" : "ies")") + "\n")
        case .json, .ndjson:
            stream.finish(clock: clock, findings: findings)
        }
        output.endOfRecord()
    }
}
