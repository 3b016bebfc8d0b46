/// One accessory, service or characteristic that changed between two accessory databases
/// (`AccessoryDatabaseComparison`).
public struct DatabaseChange: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Only in the new database.
        case added
        /// Only in the old database.
        case removed
        /// The same element (by type, or by Name and Serial Number for an accessory) under another
        /// aid or iid; `differences` has what else changed.
        case renumbered
        /// The same element, with members changed (`differences`).
        case changed
    }

    public var kind: Kind
    public var element: AccessoryTerms.Element
    /// The element in the old database's terms; nil when added.
    public var old: AccessoryTerms?
    /// The element in the new database's terms; nil when removed.
    public var new: AccessoryTerms?
    /// Where the element is in each database.
    public var oldPath: FieldPath?
    public var newPath: FieldPath?
    /// For a characteristic, the service it is in (in the new database, unless removed).
    public var service: AccessoryTerms?
    /// What changed in the element's own members (not its number, type or list of services or
    /// characteristics), with paths in the databases.
    public var differences: [JSONDifference]

    public init(
        kind: Kind, element: AccessoryTerms.Element, old: AccessoryTerms?, new: AccessoryTerms?, oldPath: FieldPath?,
        newPath: FieldPath?, service: AccessoryTerms? = nil, differences: [JSONDifference] = []
    ) {
        self.kind = kind
        self.element = element
        self.old = old
        self.new = new
        self.oldPath = oldPath
        self.newPath = newPath
        self.service = service
        self.differences = differences
    }

    /// `2.9 On (service 2.8 Lightbulb): value false → true`, `2.10 → 2.12 Brightness (service 2.8
    /// Lightbulb) renumbered`, `accessory 5 Fan removed`.
    public var description: String {
        var text: String
        switch (old, new) {
        case (let before?, let after?) where kind == .renumbered:
            text = before.label + before.number + " → " + after.number + ((after.name ?? before.name).map { " " + $0 } ?? "")
        case (let terms?, _), (nil, let terms?):
            text = terms.description
        case (nil, nil):
            text = element.rawValue
        }
        if let service { text += " (\(service))" }
        if kind != .changed { text += " " + kind.rawValue }
        if !differences.isEmpty {
            let base = oldPath ?? newPath ?? .root
            text += (kind == .changed ? ": " : "; ") + differences.map { DifferenceText.memberChange($0, below: base) }.joined(separator: "; ")
        }
        return text
    }
}
