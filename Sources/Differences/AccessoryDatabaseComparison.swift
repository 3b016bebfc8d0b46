import HAPCatalog
import HAPJSON

/// What changed between two accessory databases, element by element: accessories, services and
/// characteristics added, removed, renumbered or changed. The comparison behind `hapscope diff
/// OLD NEW`.
///
/// Databases are JSON as `/accessories` returns it (`{"accessories":[…]}`), a dump's bare array
/// of accessories, or hapscope's `accessory-database` record. Elements are matched by what they
/// are before what they are numbered, so that a firmware that renumbers its iids shows as
/// renumbered, not as everything removed and added again:
///
/// - accessories by `aid`; then, among those left, by the Name and Serial Number of their
///   Accessory Information service (HAP: Accessory Information, 3E), as the same accessory under
///   another aid;
/// - within matched accessories, services with the same `iid` and type; then, among those left,
///   services of the same type in their order (renumbered);
/// - within matched services, characteristics the same way.
///
/// A characteristic whose type changed is another characteristic: removed, and one added. Types
/// are compared as UUIDs (`23` is `00000023-0000-1000-8000-0026BB765291`). The members of matched
/// elements are compared with `JSONComparator` (numbers by value, `aid`, `iid`, `type` and the
/// nested lists left to the matching), and `ignoring` applies to paths in the old database
/// (patterns with a record type never apply here). `ev`, a connection's subscription, is compared
/// like any member; ignore `**.ev` to leave it out.
public struct AccessoryDatabaseComparison: Sendable {
    /// Changes in the order of the old database; what was added after what it is added to.
    public private(set) var changes: [DatabaseChange] = []

    private let comparator: JSONComparator
    private let oldDatabase: JSONValue
    private let newDatabase: JSONValue

    /// Compares two databases; nil when either value has no list of accessories.
    public init?(old: JSONValue, new: JSONValue, ignoring: [IgnorePattern] = []) {
        guard let before = Self.accessories(in: old), let after = Self.accessories(in: new) else { return nil }
        comparator = JSONComparator(ignoring: ignoring, comparesNumbersByValue: true)
        oldDatabase = old
        newDatabase = new
        walk(.accessory, before.elements, after.elements, before.path, after.path)
    }

    public var isEmpty: Bool { changes.isEmpty }

    /// The accessories of a database and where they are in it.
    static func accessories(in value: JSONValue) -> (elements: [JSONValue], path: FieldPath)? {
        if let list = value["accessories"]?.arrayValue { return (list, FieldPath([.key("accessories")])) }
        if let list = value.arrayValue { return (list, .root) }
        return nil
    }

    // MARK: Matching

    /// An element of one level matched with its counterpart, or alone.
    private struct Pairing {
        var old: Int?
        var new: Int?
        /// Matched by type (or signature) only, with another number.
        var renumbered: Bool
    }

    /// Pairs elements with the same identity and type, then those left with the same type in
    /// their order; the rest alone. In old order, each added element after the one before it in
    /// the new list.
    private static func match(_ old: [JSONValue], _ new: [JSONValue], level: Level) -> [Pairing] {
        // An accessory is the same one under its aid whatever it holds; a service or
        // characteristic is the same one only with its type as well.
        let isAccessory = level == .accessory
        let type: (JSONValue) -> JSONValue? = { isAccessory ? accessorySignature($0) : typeKey($0) }
        let identity: (JSONValue) -> JSONValue? = { element in
            guard let number = element[isAccessory ? "aid" : "iid"].flatMap(JSONComparator.identity) else { return nil }
            return isAccessory ? number : .array([number, type(element) ?? .null])
        }
        var partner = [Int?](repeating: nil, count: old.count)
        var taken = Set<Int>()
        /// Pairs each old element with the first new one left with the same key.
        func pair(by key: (JSONValue) -> JSONValue?) -> Set<Int> {
            // Each key's new elements, last first, so that the first is taken off the end.
            var waiting: [JSONValue: [Int]] = [:]
            for index in new.indices.reversed() where !taken.contains(index) {
                if let key = key(new[index]) { waiting[key, default: []].append(index) }
            }
            var paired = Set<Int>()
            for index in old.indices where partner[index] == nil {
                guard let key = key(old[index]), let target = waiting[key]?.popLast() else { continue }
                partner[index] = target
                taken.insert(target)
                paired.insert(index)
            }
            return paired
        }
        _ = pair(by: identity)
        let renumbered = pair(by: type)

        var pairings: [Pairing] = []
        // Added elements go after the element that precedes them in the new list.
        var nextNew = 0
        func placeAdded(before limit: Int) {
            while nextNew < limit {
                if !taken.contains(nextNew) { pairings.append(Pairing(old: nil, new: nextNew, renumbered: false)) }
                nextNew += 1
            }
        }
        for index in old.indices {
            if let target = partner[index] { placeAdded(before: target) }
            pairings.append(Pairing(old: index, new: partner[index], renumbered: renumbered.contains(index)))
        }
        placeAdded(before: new.count)
        return pairings
    }

    /// The Name and Serial Number of an accessory's Accessory Information service: what makes
    /// it the same accessory under another aid. Nil without both.
    private static func accessorySignature(_ accessory: JSONValue) -> JSONValue? {
        let information = HAPUUID(appleDefined: 0x3E)
        guard let service = accessory["services"]?.arrayValue?.first(where: { uuid($0) == information }) else { return nil }
        func value(_ type: UInt32) -> JSONValue? {
            service["characteristics"]?.arrayValue?.first { uuid($0) == HAPUUID(appleDefined: type) }?["value"]
        }
        // HAP: Name (23), Serial Number (30).
        guard let name = value(0x23), let serial = value(0x30) else { return nil }
        return .array([name, serial])
    }

    private static func uuid(_ element: JSONValue) -> HAPUUID? {
        element["type"]?.stringValue.flatMap { HAPUUID($0) }
    }

    /// The type of a service or characteristic as it identifies: the UUID, whatever its spelling.
    private static func typeKey(_ element: JSONValue) -> JSONValue? {
        uuid(element).map { .string($0.description) } ?? element["type"].map { JSONValue($0.content) }
    }

    // MARK: Walking

    private enum Level {
        case accessory, service, characteristic

        var next: Level? {
            switch self {
            case .accessory: .service
            case .service: .characteristic
            case .characteristic: nil
            }
        }

        var element: AccessoryTerms.Element {
            switch self {
            case .accessory: .accessory
            case .service: .service
            case .characteristic: .characteristic
            }
        }

        /// The list that holds the level below.
        var childList: String? {
            switch self {
            case .accessory: "services"
            case .service: "characteristics"
            case .characteristic: nil
            }
        }

        /// The members the matching compares, left out of the member comparison.
        var matchedMembers: Set<String> {
            switch self {
            case .accessory: ["aid", "services"]
            case .service: ["iid", "type", "characteristics"]
            case .characteristic: ["iid", "type"]
            }
        }
    }

    /// Compares the lists of one level (and, for each matched element, the level below).
    private mutating func walk(_ level: Level, _ old: [JSONValue], _ new: [JSONValue], _ oldList: FieldPath, _ newList: FieldPath) {
        for pairing in Self.match(old, new, level: level) {
            let oldPath = pairing.old.map { oldList.appending($0) }
            let newPath = pairing.new.map { newList.appending($0) }
            var change = DatabaseChange(
                kind: .changed, element: level.element,
                old: oldPath.flatMap { AccessoryTerms(path: $0, in: oldDatabase, recordType: nil) },
                new: newPath.flatMap { AccessoryTerms(path: $0, in: newDatabase, recordType: nil) },
                oldPath: oldPath, newPath: newPath)
            if level == .characteristic, let path = newPath ?? oldPath {
                // The service the characteristic is in: …services[s].characteristics[c].
                change.service = AccessoryTerms(path: path.parent.parent, in: newPath == nil ? oldDatabase : newDatabase, recordType: nil)
            }
            switch (pairing.old, pairing.new) {
            case (let index?, nil):
                guard !comparator.isIgnored(oldList.appending(index)) else { continue }
                change.kind = .removed
                changes.append(change)
            case (nil, let index?):
                guard !comparator.isIgnored(newList.appending(index)) else { continue }
                change.kind = .added
                changes.append(change)
            case (let before?, let after?):
                guard let oldPath, let newPath, !comparator.isIgnored(oldPath) else { continue }
                change.differences = comparator.differences(
                    from: Self.ownMembers(old[before], level), to: Self.ownMembers(new[after], level), oldPath: oldPath, newPath: newPath)
                if pairing.renumbered { change.kind = .renumbered }
                if pairing.renumbered || !change.differences.isEmpty { changes.append(change) }
                if let list = level.childList, let next = level.next {
                    walk(next, old[before][list]?.arrayValue ?? [], new[after][list]?.arrayValue ?? [],
                         oldPath.appending(list), newPath.appending(list))
                }
            case (nil, nil):
                continue
            }
        }
    }

    /// The element without what the matching compares: its number, its type, its list.
    private static func ownMembers(_ element: JSONValue, _ level: Level) -> JSONValue {
        guard let members = element.objectValue else { return element }
        return JSONValue(.object(members.filter { !level.matchedMembers.contains($0.key) }), offset: element.offset)
    }
}
