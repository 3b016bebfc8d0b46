import HAPJSON

/// Finds the field-level differences between two JSON values.
///
/// Objects are compared member by member (a repeated key counts once, with its last value, as
/// `JSONValue`'s subscript reads it). Arrays are aligned before they are compared, so that one
/// inserted element does not make every later one a difference:
///
/// - elements that are objects with an identity member (`aid`, then `iid`, by default) are aligned
///   by it: `accessories` by `aid`, `services` and `characteristics` by `iid`;
/// - other elements are aligned by their content, and what is left unaligned between two aligned
///   elements is paired by position and compared member by member;
/// - an element that is on both sides but out of order is `moved` (and compared);
/// - arrays of at most `wholeArrayLength` scalars (`perms`, `valid-values`) are one value, since
///   `["pr","pw"] → ["pr"]` reads better than an element removed.
///
/// Anything an `IgnorePattern` names is skipped with all it contains.
public struct JSONComparator: Sendable {
    /// The members that identify an object in an array, tried in order.
    public var identityKeys: [String]
    public var ignoring: [IgnorePattern]
    /// The type of the record being compared, for patterns limited to a record type.
    public var recordType: String?
    /// Whether numbers are equal by value (`100` and `100.0`), or only when written alike.
    public var comparesNumbersByValue: Bool
    /// The bound of every array alignment (`SequenceAlignment`).
    public var maximumEditDistance: Int

    /// Identity members of HAP's accessory databases: accessories have an `aid`, services and
    /// characteristics an `iid` unique within their accessory (HAP: Instance IDs).
    public static let accessoryIdentityKeys = ["aid", "iid"]

    /// Arrays of scalars up to this length are compared as one value.
    public static let wholeArrayLength = 8

    public init(
        identityKeys: [String] = accessoryIdentityKeys, ignoring: [IgnorePattern] = [], recordType: String? = nil,
        comparesNumbersByValue: Bool = false, maximumEditDistance: Int = SequenceAlignment.defaultMaximumEditDistance
    ) {
        self.identityKeys = identityKeys
        self.ignoring = ignoring
        self.recordType = recordType
        self.comparesNumbersByValue = comparesNumbersByValue
        self.maximumEditDistance = maximumEditDistance
    }

    /// Every difference from `old` to `new`, in the order of the old value; paths start at
    /// `oldPath` and `newPath` (where the values sit in larger documents).
    public func differences(
        from old: JSONValue, to new: JSONValue, oldPath: FieldPath = .root, newPath: FieldPath = .root
    ) -> [JSONDifference] {
        var differences: [JSONDifference] = []
        compare(old, new, oldPath, newPath, into: &differences)
        return differences
    }

    /// Whether an ignore pattern names `path`.
    public func isIgnored(_ path: FieldPath) -> Bool {
        ignoring.ignores(path, recordType: recordType)
    }

    /// `value` without the members and elements an ignore pattern names: what counts of it.
    public func normalized(_ value: JSONValue, at path: FieldPath = .root) -> JSONValue {
        guard !ignoring.isEmpty else { return value }
        switch value.content {
        case .object(let members):
            return JSONValue(.object(members.compactMap { member in
                let memberPath = path.appending(member.key)
                guard !isIgnored(memberPath) else { return nil }
                return JSONMember(key: member.key, value: normalized(member.value, at: memberPath))
            }), offset: value.offset)
        case .array(let elements):
            return JSONValue(.array(elements.indices.compactMap { index in
                let elementPath = path.appending(index)
                return isIgnored(elementPath) ? nil : normalized(elements[index], at: elementPath)
            }), offset: value.offset)
        case .null, .bool, .number, .string:
            return value
        }
    }

    // MARK: Values

    private func compare(_ old: JSONValue, _ new: JSONValue, _ oldPath: FieldPath, _ newPath: FieldPath, into differences: inout [JSONDifference]) {
        guard !isIgnored(oldPath) else { return }
        switch (old.content, new.content) {
        case (.object(let oldMembers), .object(let newMembers)):
            compareObjects(oldMembers, newMembers, oldPath, newPath, into: &differences)
        case (.array(let oldElements), .array(let newElements))
            where !(Self.isShortScalarArray(oldElements) && Self.isShortScalarArray(newElements)):
            compareArrays(oldElements, newElements, oldPath, newPath, into: &differences)
        case (.array, .array):
            if normalized(old, at: oldPath) != normalized(new, at: newPath) {
                differences.append(JSONDifference(kind: .changed, oldPath: oldPath, newPath: newPath, old: old, new: new))
            }
        default:
            if !scalarsEqual(old, new) {
                differences.append(JSONDifference(kind: .changed, oldPath: oldPath, newPath: newPath, old: old, new: new))
            }
        }
    }

    private static func isShortScalarArray(_ elements: [JSONValue]) -> Bool {
        elements.count <= wholeArrayLength && elements.allSatisfy { element in
            switch element.content {
            case .array, .object: false
            case .null, .bool, .number, .string: true
            }
        }
    }

    private func scalarsEqual(_ old: JSONValue, _ new: JSONValue) -> Bool {
        if comparesNumbersByValue, let a = old.numberValue, let b = new.numberValue {
            return Self.sameNumber(a, b)
        }
        return old == new
    }

    private static func sameNumber(_ a: JSONNumber, _ b: JSONNumber) -> Bool {
        switch (a.value, b.value) {
        case (.integer(let x), .integer(let y)): x == y
        case (.unsignedInteger(let x), .unsignedInteger(let y)): x == y
        case (.integer, .unsignedInteger), (.unsignedInteger, .integer): false
        default: a.doubleValue == b.doubleValue
        }
    }

    // MARK: Objects

    private func compareObjects(
        _ oldMembers: [JSONMember], _ newMembers: [JSONMember], _ oldPath: FieldPath, _ newPath: FieldPath,
        into differences: inout [JSONDifference]
    ) {
        let oldValues = Self.lastValues(oldMembers)
        let newValues = Self.lastValues(newMembers)
        for key in Self.keysInOrder(oldMembers) {
            let old = oldValues[key]!
            if let new = newValues[key] {
                compare(old, new, oldPath.appending(key), newPath.appending(key), into: &differences)
            } else if !isIgnored(oldPath.appending(key)) {
                differences.append(JSONDifference(kind: .removed, oldPath: oldPath.appending(key), newPath: nil, old: old, new: nil))
            }
        }
        for key in Self.keysInOrder(newMembers) where oldValues[key] == nil && !isIgnored(newPath.appending(key)) {
            differences.append(JSONDifference(kind: .added, oldPath: nil, newPath: newPath.appending(key), old: nil, new: newValues[key]))
        }
    }

    private static func lastValues(_ members: [JSONMember]) -> [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Each key once, where it first appears.
    private static func keysInOrder(_ members: [JSONMember]) -> [String] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    // MARK: Arrays

    /// What an array element is aligned by.
    private enum ElementKey: Hashable {
        /// The first identity member the element has, with its value.
        case identity(key: String, value: JSONValue)
        /// The element's content, without what is ignored.
        case content(JSONValue)

        var isIdentity: Bool {
            if case .identity = self { true } else { false }
        }
    }

    private func key(of element: JSONValue, at path: FieldPath) -> ElementKey {
        if element.objectValue != nil {
            for key in identityKeys {
                if let value = element[key].flatMap(Self.identity) { return .identity(key: key, value: value) }
            }
        }
        return .content(JSONValue(normalized(element, at: path).content))
    }

    /// An identity member's value as it identifies: numbers by value (the same aid written 2 or
    /// 2.0 is the same accessory), strings as they are; nil for values that identify nothing.
    static func identity(_ value: JSONValue) -> JSONValue? {
        switch value.content {
        case .number(let number):
            if let unsigned = number.uint64Value { return .number(JSONNumber(unsigned)) }
            if let signed = number.int64Value { return .number(JSONNumber(signed)) }
            return JSONValue(value.content)
        case .string:
            return JSONValue(value.content)
        case .null, .bool, .array, .object:
            return nil
        }
    }

    private func compareArrays(
        _ oldElements: [JSONValue], _ newElements: [JSONValue], _ oldPath: FieldPath, _ newPath: FieldPath,
        into differences: inout [JSONDifference]
    ) {
        let oldKeys = oldElements.indices.map { key(of: oldElements[$0], at: oldPath.appending($0)) }
        let newKeys = newElements.indices.map { key(of: newElements[$0], at: newPath.appending($0)) }
        let alignment = SequenceAlignment(oldKeys, newKeys, maximumEditDistance: maximumEditDistance)

        // The stretch before each aligned pair, and the one after the last: gaps[i] ends at
        // matches[i]; the last gap runs to the ends.
        let ends = alignment.matches + [SequenceAlignment.Match(old: oldElements.count, new: newElements.count)]
        var gaps: [(old: Range<Int>, new: Range<Int>)] = []
        var previous = SequenceAlignment.Match(old: -1, new: -1)
        for end in ends {
            gaps.append((old: previous.old + 1 ..< end.old, new: previous.new + 1 ..< end.new))
            previous = end
        }

        // An element left out of the alignment on both sides, with the same key, moved.
        // Each key's elements, last first, so that the first is taken off the end.
        var unalignedNew: [ElementKey: [Int]] = [:]
        for gap in gaps.reversed() {
            for index in gap.new.reversed() { unalignedNew[newKeys[index], default: []].append(index) }
        }
        var movedTo: [Int: Int] = [:]
        var movedFrom = Set<Int>()
        for gap in gaps {
            for index in gap.old {
                guard let target = unalignedNew[oldKeys[index]]?.popLast() else { continue }
                movedTo[index] = target
                movedFrom.insert(target)
            }
        }

        for (position, gap) in gaps.enumerated() {
            for index in gap.old {
                guard let target = movedTo[index] else { continue }
                if !isIgnored(oldPath.appending(index)) {
                    differences.append(JSONDifference(
                        kind: .moved, oldPath: oldPath.appending(index), newPath: newPath.appending(target), old: nil, new: nil))
                }
                compare(oldElements[index], newElements[target], oldPath.appending(index), newPath.appending(target), into: &differences)
            }
            // What else is in the gap is paired by position where neither side has an identity,
            // and is otherwise removed or added.
            let removed = gap.old.filter { movedTo[$0] == nil }
            let added = gap.new.filter { !movedFrom.contains($0) }
            let pairs = Array(zip(removed.filter { !oldKeys[$0].isIdentity }, added.filter { !newKeys[$0].isIdentity }))
            let paired = (old: Set(pairs.map(\.0)), new: Set(pairs.map(\.1)))
            for (old, new) in pairs {
                compare(oldElements[old], newElements[new], oldPath.appending(old), newPath.appending(new), into: &differences)
            }
            for index in removed where !paired.old.contains(index) && !isIgnored(oldPath.appending(index)) {
                differences.append(JSONDifference(kind: .removed, oldPath: oldPath.appending(index), newPath: nil, old: oldElements[index], new: nil))
            }
            for index in added where !paired.new.contains(index) && !isIgnored(newPath.appending(index)) {
                differences.append(JSONDifference(kind: .added, oldPath: nil, newPath: newPath.appending(index), old: nil, new: newElements[index]))
            }
            if position < alignment.matches.count {
                let match = alignment.matches[position]
                compare(oldElements[match.old], newElements[match.new], oldPath.appending(match.old), newPath.appending(match.new), into: &differences)
            }
        }
    }
}
