import DNS
import HAPEvents
import Packets

/// The mDNS table: each advertised HAP and Matter instance with its TXT record explained, then
/// every advertisement and browse query over time with the TXT keys that changed highlighted.
extension HTMLReportBuilder {
    /// One TXT key of one advertisement, and how it compares with the instance's previous one.
    struct TXTChip {
        enum Change {
            /// The instance's first advertisement: nothing to compare with.
            case firstSeen
            case unchanged
            case changed(old: String?)
        }

        let key: String
        let value: String?
        let explanation: String
        let change: Change
    }

    /// One row of the mDNS table.
    struct DiscoveryEntry {
        let packet: PacketInfo?
        let sender: String
        let isQuery: Bool
        /// `browse`, `probe`, `first announcement`, `announcement` or `goodbye`.
        let kind: String
        /// The instance advertised, or the names browsed for.
        let subject: String
        let chips: [TXTChip]
        /// Keys the previous advertisement had and this one lacks, with their old values.
        let removedKeys: [(key: String, old: String?)]
        let omittedKeys: Int
        let problems: [String]

        init(_ query: DiscoveryQueryEvent, packet: PacketInfo?, limits: HTMLReportLimits) {
            self.packet = packet
            sender = query.sender.description
            isQuery = true
            kind = "browse"
            subject = limits.clipped(query.queries.prefix(limits.itemsPerList).map { query in
                "\(query.name) \(query.type)" + (query.prefersUnicastResponse ? " (QU)" : "")
            }.joined(separator: ", "))
            chips = []
            removedKeys = []
            omittedKeys = 0
            problems = []
        }

        init(_ advertisement: AdvertisementEvent, packet: PacketInfo?, limits: HTMLReportLimits) {
            let service = advertisement.service
            self.packet = packet
            sender = advertisement.sender.description
            isQuery = false
            let presentation = AdvertisementPresentation(advertisement)
            kind = presentation.kind
            subject = limits.clipped(service.instance.instanceText)
            let fields = presentation.fields ?? []
            chips = fields.prefix(limits.itemsPerList).map { field in
                let change: TXTChip.Change = switch field.change {
                case .firstSeen: .firstSeen
                case .unchanged: .unchanged
                case .changed(let changed): .changed(old: changed.old.map(limits.clipped))
                }
                let explained = field.explanation
                return TXTChip(key: limits.clipped(explained.key), value: explained.value.map(limits.clipped),
                               explanation: limits.clipped(explained.explanation), change: change)
            }
            omittedKeys = max(0, fields.count - limits.itemsPerList)
            removedKeys = presentation.removedKeys.prefix(limits.itemsPerList).map { (limits.clipped($0.key), $0.old.map(limits.clipped)) }
            problems = HTMLReportBuilder.problems(of: presentation).prefix(limits.itemsPerList).map(limits.clipped)
        }
    }

    /// The last advertisement of one instance, its TXT keys explained.
    struct DiscoveredInstance {
        let name: String
        let serviceType: String
        /// Target and port, addresses, sender and the packet it was last seen in.
        let facts: String
        let fields: [TXTFieldExplanation]
        let omittedFields: Int

        init(_ advertisement: AdvertisementEvent, packet: PacketInfo?, limits: HTMLReportLimits) {
            let service = advertisement.service
            name = limits.clipped(service.instance.instanceText)
            serviceType = limits.clipped(service.serviceType.description)
            var facts: [String] = []
            if let location = service.location { facts.append("\(location.target):\(location.port)") }
            if !service.addresses.isEmpty {
                facts.append(service.addresses.prefix(limits.itemsPerList).map(\.address.description).joined(separator: ", "))
            }
            facts.append("from \(advertisement.sender)")
            if let packet { facts.append("last seen in #\(packet.number)") }
            self.facts = limits.clipped(facts.joined(separator: " · "))
            let fields = (AdvertisementPresentation(advertisement).fields ?? []).map(\.explanation)
            self.fields = fields.prefix(limits.itemsPerList).map { field in
                TXTFieldExplanation(key: limits.clipped(field.key), value: field.value.map(limits.clipped),
                                    explanation: limits.clipped(field.explanation), offset: field.offset)
            }
            omittedFields = max(0, fields.count - limits.itemsPerList)
        }
    }

    func writeDiscovery(_ html: inout HTMLWriter) {
        html.section(id: "mdns", title: "mDNS discovery") { html in
            if discovery.isEmpty && instances.isEmpty {
                html.element("p", ["class": "muted"], text: "No HAP or Matter mDNS traffic in the capture.")
                return
            }
            for instance in instances {
                writeInstance(instance, &html)
            }
            html.omissionNote(droppedInstanceAdvertisements, "advertisement of further instances", "advertisements of further instances",
                              reason: "the report explains the first \(HTMLFormat.count(limits.discoveryInstances)) instances")
            html.markup("<h3>Advertisements and queries over time</h3>\n")
            html.table(class: "mdns", headers: ["Packet", "Time", "From", "Kind", "Instance", "TXT (changes highlighted)", "Problems"],
                       numericColumns: [1]) { html in
                for entry in discovery {
                    writeRow(entry, &html)
                }
            }
            html.omissionNote(droppedDiscoveryEntries, "advertisement or query", "advertisements and queries",
                              reason: "the table lists the first \(HTMLFormat.count(limits.discoveryEntries)); the summary counts every one")
        }
    }

    private func writeInstance(_ instance: DiscoveredInstance, _ html: inout HTMLWriter) {
        html.element("h3") { html in
            html.text(instance.name + " ")
            html.span("muted mono", instance.serviceType)
        }
        html.element("p", ["class": "muted mono"], text: instance.facts)
        guard !instance.fields.isEmpty else { return }
        html.table(headers: ["Key", "Value", "Meaning"]) { html in
            for field in instance.fields {
                html.markup("<tr>")
                html.element("td", ["class": "mono"], text: field.key)
                html.element("td", ["class": "mono wrap"], text: field.value ?? "")
                html.cell(field.explanation)
                html.markup("</tr>\n")
            }
        }
        html.omissionNote(instance.omittedFields, "TXT key", "TXT keys", reason: "the table lists the first \(HTMLFormat.count(limits.itemsPerList))")
    }

    private func writeRow(_ entry: DiscoveryEntry, _ html: inout HTMLWriter) {
        html.markup("<tr>")
        html.packetCell(entry.packet?.number)
        html.numberCell(entry.packet.map { HTMLFormat.offset(offset($0.timestamp)) } ?? "—")
        html.element("td", ["class": "mono"], text: entry.sender)
        html.element("td", ["class": "kind"], text: entry.kind)
        html.element("td", entry.isQuery ? ["class": "mono"] : [:], text: entry.subject)
        html.element("td") { html in
            guard !entry.chips.isEmpty || !entry.removedKeys.isEmpty else { return }
            html.markup("<div class=\"chips\">")
            for chip in entry.chips {
                Self.writeChip(chip, &html)
            }
            for (key, old) in entry.removedKeys {
                html.element("span", ["class": "chip changed"], text: "\(key) removed (was \(old ?? "a bare key"))")
            }
            if entry.omittedKeys > 0 { html.element("span", ["class": "chip same"], text: "+\(entry.omittedKeys) more") }
            html.markup("</div>")
        }
        html.element("td") { html in
            for (index, problem) in entry.problems.enumerated() {
                if index > 0 { html.markup("<br>") }
                html.span("bad", problem)
            }
        }
        html.markup("</tr>\n")
    }

    /// `key=value`; a changed key is highlighted with its old value struck through, and keys
    /// that did not change are muted so that changes stand out.
    private static func writeChip(_ chip: TXTChip, _ html: inout HTMLWriter) {
        let className = switch chip.change {
        case .firstSeen: "chip"
        case .unchanged: "chip same"
        case .changed: "chip changed"
        }
        html.open("span", ["class": className, "title": chip.explanation])
        html.text(chip.key + "=")
        if case .changed(let old) = chip.change {
            html.span("old", old ?? "absent")
            html.text(" → ")
        }
        html.text(chip.value ?? "")
        html.close("span")
    }

    /// The TXT keys with their meaning, decoded as HAP or Matter where the service is one.
    /// Everything wrong with the advertisement, and a setup hash that does not match the setup ID
    /// the user gave.
    fileprivate static func problems(of presentation: AdvertisementPresentation) -> [String] {
        var problems = presentation.diagnostics.map(\.description)
        if presentation.event.setupHashMatches == false { problems.append("sh does not match the setup ID given") }
        return problems
    }
}
