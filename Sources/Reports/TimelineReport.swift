import HAPEvents
import HAPJSON

/// Which characteristics `hapscope timeline --char` follows: an `aid.iid` address, or a name
/// matched without regard to case anywhere in the characteristic's catalogue name
/// (`temperature` follows Current Temperature and Target Temperature).
public struct CharacteristicSelector: Sendable, Hashable, CustomStringConvertible {
    public enum Match: Sendable, Hashable {
        case id(CharacteristicID)
        case name(String)
    }

    public let match: Match

    /// `1.10` selects that address; anything else is a name.
    public init(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, let aid = UInt64(parts[0]), let iid = UInt64(parts[1]) {
            match = .id(CharacteristicID(aid: aid, iid: iid))
        } else {
            match = .name(text.lowercased())
        }
    }

    public func selects(_ activity: CharacteristicActivity) -> Bool {
        switch match {
        case .id(let id): activity.id == id
        case .name(let name): activity.name?.lowercased().contains(name) ?? false
        }
    }

    public var description: String {
        switch match {
        case .id(let id): id.description
        case .name(let name): "\"\(name)\""
        }
    }
}

/// `hapscope timeline`: characteristic reads, writes, events and subscriptions in capture order,
/// written as they arrive. With selectors, only the characteristics they select.
public typealias TimelineReport = StreamedReport<TimelineLines>

extension StreamedReport where Text == TimelineLines {
    public convenience init(output: ReportOutput, settings: ReportSettings, selectors: [CharacteristicSelector] = []) {
        self.init(output: output, settings: settings, text: TimelineLines(selectors: selectors))
    }
}

/// The text of `hapscope timeline`.
public struct TimelineLines: StreamedText {
    let selectors: [CharacteristicSelector]
    private var entryCount = 0

    init(selectors: [CharacteristicSelector]) {
        self.selectors = selectors
    }

    private func selects(_ activity: CharacteristicActivity) -> Bool {
        selectors.isEmpty || selectors.contains { $0.selects(activity) }
    }

    public var command: String { "timeline" }

    public func carries(_ kind: HAPEvent.Kind) -> Bool {
        if case .characteristic(let activity) = kind { return selects(activity) }
        return false
    }

    public mutating func write(_ event: HAPEvent, on page: TextPage) -> Bool {
        guard case .characteristic(let activity) = event.kind, selects(activity) else { return false }
        if entryCount == 0 {
            page.write(page.style.paint(
                EventText.padLeft("time", 12) + EventText.padLeft("packet", 8) + "  conn  "
                    + EventText.padRight("kind", 12) + EventText.padRight("char", 8) + EventText.padRight("name", 28) + "value",
                .heading) + "\n")
        }
        entryCount += 1
        page.write(line(activity, event: event, on: page) + "\n")
        if let structure = activity.structure {
            let indent = String(repeating: " ", count: 30)
            for text in StructureText.lines(structure, style: page.style) { page.write(indent + text + "\n") }
        }
        return true
    }

    public var closingWords: String? {
        let filter = selectors.isEmpty ? "" : " for " + selectors.map(\.description).joined(separator: ", ")
        return "\(entryCount) characteristic entr\(entryCount == 1 ? "y" : "ies")\(filter)"
    }

    private func line(_ activity: CharacteristicActivity, event: HAPEvent, on page: TextPage) -> String {
        let style = page.style
        var text = EventText.prefix(event.packet, clock: page.clock, style: style) + "  "
        text += EventText.padRight("#\(activity.connection.id)", 6)
        let kindRole: TextStyle.Role = switch activity.kind {
        case .write: .controller
        case .event: .accessory
        case .read, .subscribe, .unsubscribe: .dim
        }
        text += style.paint(EventText.padRight(activity.kind.rawValue, 12), kindRole)
        text += EventText.padRight(activity.id.description, 8)
        text += EventText.padRight(activity.name.map(TerminalText.sanitized) ?? "?", 28)
        switch activity.kind {
        case .subscribe: text += "events on"
        case .unsubscribe: text += "events off"
        case .read, .write, .event: break
        }
        if let value = activity.value {
            let described = ValueText.describe(value, type: activity.type, unit: activity.unit)
            text += value.issues.isEmpty ? described : style.paint(described, .warning)
        }
        if let pduStatus = activity.pduStatus {
            text += style.paint(" → PDU status \(pduStatus)" + (activity.status.map { ", read as \($0)" } ?? ""), .bad)
        } else if let status = activity.status {
            text += style.paint(" → status \(status)", .bad)
        }
        if activity.timedWrite { text += style.paint("  (timed write)", .dim) }
        if !activity.answered { text += style.paint("  (no response before the connection ended)", .warning) }
        if let request = activity.requestPacket, request.number != event.packet?.number {
            text += style.paint("  (request #\(request.number))", .dim)
        }
        return text
    }
}
