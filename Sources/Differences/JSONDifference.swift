import HAPJSON

/// What kind of difference one is. The raw values are stable: `hapscope check --format json`
/// and `--format junit` carry them, and counts are kept per kind.
public struct DifferenceKind: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A member or element holds another value.
    public static let changed = DifferenceKind(rawValue: "changed")
    /// A member or element is only in the new value.
    public static let added = DifferenceKind(rawValue: "added")
    /// A member or element is only in the old value.
    public static let removed = DifferenceKind(rawValue: "removed")
    /// An array element is at another position (its own differences, if any, are listed apart).
    public static let moved = DifferenceKind(rawValue: "moved")
    /// A whole record is only in the new sequence.
    public static let recordAdded = DifferenceKind(rawValue: "record-added")
    /// A whole record is only in the old sequence.
    public static let recordRemoved = DifferenceKind(rawValue: "record-removed")
    /// A whole record, unchanged, is at another position in the sequence.
    public static let recordMoved = DifferenceKind(rawValue: "record-moved")

    /// Every kind, in the order counts are listed.
    public static let all: [DifferenceKind] = [.changed, .added, .removed, .moved, .recordAdded, .recordRemoved, .recordMoved]

    /// How a count of this kind reads: `changed`, `record added`.
    public var phrase: String { String(rawValue.map { $0 == "-" ? " " : $0 }) }

    public static func < (lhs: DifferenceKind, rhs: DifferenceKind) -> Bool {
        (all.firstIndex(of: lhs) ?? all.count, lhs.rawValue) < (all.firstIndex(of: rhs) ?? all.count, rhs.rawValue)
    }
}

/// One difference between two JSON values: a member or element that changed, was added or
/// removed, or an element that moved.
///
/// Paths are given on each side where the thing exists: an element of an aligned array may sit at
/// index 3 in the old value and 4 in the new.
public struct JSONDifference: Hashable, Sendable {
    public var kind: DifferenceKind
    /// Where it is in the old value; nil for what was added.
    public var oldPath: FieldPath?
    /// Where it is in the new value; nil for what was removed.
    public var newPath: FieldPath?
    /// The old value; nil for what was added (and for a move).
    public var old: JSONValue?
    /// The new value; nil for what was removed (and for a move).
    public var new: JSONValue?

    public init(kind: DifferenceKind, oldPath: FieldPath?, newPath: FieldPath?, old: JSONValue?, new: JSONValue?) {
        self.kind = kind
        self.oldPath = oldPath
        self.newPath = newPath
        self.old = old
        self.new = new
    }

    /// The path to show: the old one where it exists, else the new.
    public var path: FieldPath { oldPath ?? newPath ?? .root }
}
