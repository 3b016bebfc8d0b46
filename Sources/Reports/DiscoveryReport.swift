import DNS
import HAPCatalog
import HAPEvents

/// `hapscope discover`: every HAP and Matter advertisement over time with its TXT keys
/// explained, changes to `c#`, `s#` and `sf` highlighted, goodbyes, and who browsed.
///
/// The first sighting of an instance lists every TXT key; later ones list only what changed,
/// unless `verbose` asks for every key every time.
public typealias DiscoveryReport = StreamedReport<DiscoveryLines>

extension StreamedReport where Text == DiscoveryLines {
    public convenience init(output: ReportOutput, settings: ReportSettings, verbose: Bool = false) {
        self.init(output: output, settings: settings, text: DiscoveryLines(verbose: verbose))
    }
}

/// The text of `hapscope discover`.
public struct DiscoveryLines: StreamedText {
    let verbose: Bool
    private var advertisements = 0
    private var queries = 0
    private var instances: Set<String> = []
    /// Instances are counted up to a bound: a flood of invented instance names must not grow memory.
    static let maximumInstancesCounted = 100_000

    init(verbose: Bool) {
        self.verbose = verbose
    }

    public var command: String { "discover" }

    public func carries(_ kind: HAPEvent.Kind) -> Bool {
        switch kind {
        case .advertisement, .bleAdvertisement, .mdnsQuery: true
        default: false
        }
    }

    public mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool {
        switch event.kind {
        case .advertisement(let advertisement):
            advertisements += 1
            if instances.count < Self.maximumInstancesCounted {
                instances.insert(advertisement.service.name.escapedText.lowercased())
            }
            writeAdvertisement(advertisement, event: event, on: page)
        case .bleAdvertisement(let advertisement):
            advertisements += 1
            if let regular = advertisement.regular, instances.count < Self.maximumInstancesCounted {
                instances.insert(regular.deviceIDText.lowercased())
            }
            writeBLEAdvertisement(advertisement, event: event, on: page)
        case .mdnsQuery(let query):
            queries += 1
            page.write(EventText.prefix(event.packet, clock: page.clock, style: page.style) + "  "
                + page.style.paint(EventText.padRight("query", 9), .dim) + EventText.queryLine(query) + "\n")
        default:
            return false
        }
        return true
    }

    public var closingWords: String? {
        "\(advertisements) advertisement\(advertisements == 1 ? "" : "s") of "
            + (instances.count < Self.maximumInstancesCounted ? "" : "at least ")
            + "\(instances.count) instance\(instances.count == 1 ? "" : "s"), "
            + "\(queries) browsing quer\(queries == 1 ? "y" : "ies")"
    }

    /// A HAP-BLE advertisement: one line, and on first sighting (or with `verbose`) what its
    /// fields mean (HomeKitADK HAPBLEAccessoryServer+Advertising.c).
    private func writeBLEAdvertisement(_ advertisement: BLEAdvertisementEvent, event: HAPEvent, on page: TextPage) {
        let style = page.style
        page.write(EventText.prefix(event.packet, clock: page.clock, style: style) + "  "
            + style.paint(EventText.padRight("ble", 9), .heading) + EventText.bleAdvertisementLine(advertisement, style: style) + "\n")
        guard let regular = advertisement.regular, verbose || advertisement.isFirstSighting else { return }
        let indent = String(repeating: " ", count: 22)
        let category = HAPCatalog.categoryName(Int(regular.category)).map { " (\($0))" } ?? ""
        let lines = [
            "status flags \(regular.statusFlags): " + (regular.isPaired ? "paired" : "not paired, accepts pair-setup"),
            "category \(regular.category)\(category)",
            "global state number \(regular.globalStateNumber): grows when a characteristic changes while no controller is connected",
            "configuration number \(regular.configurationNumber): grows when the accessory database changes",
            "compatible version \(regular.compatibleVersion)",
        ]
        for line in lines { page.write(indent + line + "\n") }
    }

    private func writeAdvertisement(_ advertisement: AdvertisementEvent, event: HAPEvent, on page: TextPage) {
        let style = page.style
        let clock = page.clock
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
        page.write(head + "\n")

        let indent = String(repeating: " ", count: 22)
        let presentation = AdvertisementPresentation(advertisement)
        let fields = presentation.fields ?? []
        let showAll = verbose || advertisement.isFirstSighting
        let shown = fields.filter { field in
            if showAll { return true }
            if case .changed = field.change { return true }
            return false
        }
        let keyWidth = min((shown.map { $0.explanation.key.count + ($0.explanation.value?.count ?? 0) + 1 }.max() ?? 0), 28)
        for field in shown {
            let explained = field.explanation
            let pair = TerminalText.sanitized(explained.value.map { "\(explained.key)=\($0)" } ?? explained.key)
            var text = EventText.padRight(pair, keyWidth + 1) + " " + TerminalText.sanitized(explained.explanation)
            if case .changed(let change) = field.change {
                let note = " (was \(change.old.map(TerminalText.sanitized) ?? "absent"))"
                text = style.paint(text + note, change.isSignificant ? .changed : .warning)
            }
            page.write(indent + text + "\n")
        }
        for change in presentation.removedKeys {
            page.write(indent + style.paint("\(change.key) removed (was \(TerminalText.sanitized(change.old ?? "")))", .changed) + "\n")
        }
        if !showAll, shown.isEmpty, !service.isGoodbye, service.txt != nil {
            page.write(indent + style.paint("TXT unchanged", .dim) + "\n")
        }
        if let matches = advertisement.setupHashMatches {
            page.write(indent + (matches
                ? style.paint("setup hash matches the setup ID given", .good)
                : style.paint("setup hash does not match the setup ID given", .bad)) + "\n")
        }
        for diagnostic in presentation.diagnostics {
            page.write(indent + style.paint("! \(TerminalText.sanitized(diagnostic.description))", .warning) + "\n")
        }
    }
}
