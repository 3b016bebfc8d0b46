import DNS
import HAPEvents

/// An mDNS advertisement as every renderer shows it (`discover`, the HTML mDNS table, JSON): its
/// TXT keys with their meaning and what changed since the instance's previous advertisement,
/// and everything wrong with it.
struct AdvertisementPresentation {
    /// One TXT key, and how it compares with the instance's previous advertisement.
    struct Field {
        enum Change {
            /// The instance's first advertisement: nothing to compare with.
            case firstSeen
            case unchanged
            case changed(TXTChange)
        }

        let explanation: TXTFieldExplanation
        let change: Change
    }

    /// One problem of the advertisement: where it is (`mdns`, `txt`, `hap`, `matter`), its byte
    /// offset in the mDNS message, and what it is.
    struct Diagnostic: CustomStringConvertible {
        let source: String
        let offset: Int?
        let message: String

        /// `byte 42: no pv key: controllers assume protocol version 1.0`.
        var description: String { (offset.map { "byte \($0): " } ?? "") + message }
    }

    let event: AdvertisementEvent
    /// The TXT keys in wire order; nil when the advertisement carried no TXT record.
    let fields: [Field]?
    /// Keys the previous advertisement had and this one lacks.
    let removedKeys: [TXTChange]
    let diagnostics: [Diagnostic]

    init(_ event: AdvertisementEvent) {
        self.event = event
        var changes: [String: TXTChange] = [:]
        for change in event.changes where changes[change.key.lowercased()] == nil { changes[change.key.lowercased()] = change }
        fields = Self.explainedFields(event.service)?.map { field in
            let change: Field.Change = if event.isFirstSighting {
                .firstSeen
            } else if let changed = changes[field.key.lowercased()] {
                .changed(changed)
            } else {
                .unchanged
            }
            return Field(explanation: field, change: change)
        }
        removedKeys = event.changes.filter { $0.new == nil }
        diagnostics = Self.diagnostics(of: event)
    }

    /// `goodbye`, `probe`, `first announcement` or `announcement`.
    var kind: String {
        if event.service.isGoodbye { return "goodbye" }
        if !event.isResponse { return "probe" }
        return event.isFirstSighting ? "first announcement" : "announcement"
    }

    /// The TXT keys with their meaning: HAP's or Matter's explanations, else the raw pairs.
    private static func explainedFields(_ service: ServiceAdvertisement) -> [TXTFieldExplanation]? {
        if let hap = service.hap { return hap.fields }
        if let fields = service.matter?.txt?.fields { return fields }
        return service.txt.map { txt in
            txt.entries.map { TXTFieldExplanation(key: $0.key, value: $0.valueText, explanation: "", offset: $0.offset) }
        }
    }

    private static func diagnostics(of event: AdvertisementEvent) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for diagnostic in event.messageDiagnostics {
            result.append(.init(source: "mdns", offset: diagnostic.offset, message: diagnostic.kind.description))
        }
        for diagnostic in event.service.txt?.diagnostics ?? [] {
            result.append(.init(source: "txt", offset: diagnostic.offset, message: diagnostic.kind.description))
        }
        for diagnostic in event.service.hap?.diagnostics ?? [] {
            result.append(.init(source: "hap", offset: diagnostic.offset, message: diagnostic.kind.description))
        }
        for diagnostic in event.service.matter?.allDiagnostics ?? [] {
            result.append(.init(source: "matter", offset: diagnostic.offset, message: diagnostic.kind.description))
        }
        return result
    }
}
