import HAPJSON

/// The differences between two NDJSON record sequences, record by record and field by field:
/// what `hapscope check` reports between a capture's expected decode and its decode today.
///
/// Records are aligned before they are compared, so an inserted record is one difference and the
/// records after it still line up. The alignment is made in three passes, each only over what the
/// one before left unaligned:
///
/// 1. lines with the same text (most of a decode, when little changed; nothing is parsed);
/// 2. records with the same identity: `type`, `packet`, `connection`, `direction`,
///    `characteristic` and `rule` (those they have, and no pattern ignores); a pair is a changed
///    record, compared member by member (`JSONComparator`);
/// 3. records of the same `type`, paired when at least half their top-level members are equal (a
///    record whose packet number moved is a changed record; an unrelated one is not).
///
/// Each pass is a `SequenceAlignment`, so it costs at most O((N + M) · D) for D edits up to its
/// bound, and a region too different for the bound is passed on whole: a decode whose every
/// record changed is aligned by identity in one step once the pass over lines gives up. What no pass aligned is removed or added, except
/// records that are on both sides with the same content (without what is ignored): those moved.
///
/// Differences come in the order of the expected sequence; added records where they were
/// inserted.
public struct NDJSONComparison: Sendable {
    public struct Options: Sendable {
        /// What does not count (`IgnorePattern`); a pattern that names whole records of a type
        /// leaves them out of the comparison.
        public var ignoring: [IgnorePattern]
        /// The bound of each alignment (`SequenceAlignment`).
        public var maximumEditDistance: Int
        /// How many differences are kept with their details (nil: all); all are counted.
        public var retainedDifferences: Int?

        public init(
            ignoring: [IgnorePattern] = [], maximumEditDistance: Int = SequenceAlignment.defaultMaximumEditDistance,
            retainedDifferences: Int? = nil
        ) {
            self.ignoring = ignoring
            self.maximumEditDistance = maximumEditDistance
            self.retainedDifferences = retainedDifferences
        }
    }

    /// The members that identify a record among those of its sequence.
    public static let identityMembers = ["type", "packet", "connection", "direction", "characteristic", "rule"]

    /// How many records each side has.
    public let expectedRecordCount: Int
    public let decodedRecordCount: Int
    /// The differences kept, in order.
    public private(set) var differences: [RecordDifference] = []
    /// Every difference, counted.
    public private(set) var tally = DifferenceTally()

    public var isEqual: Bool { tally.total == 0 }

    /// How many differences were counted but not kept.
    public var omittedDifferences: Int {
        tally.total - differences.reduce(0) { $0 + ($1.change == .changed ? $1.fieldDifferences.count : 1) }
    }

    public init(expected: String, decoded: String, options: Options = Options()) {
        var aligner = RecordAligner(expected: NDJSONRecord.lines(of: expected), decoded: NDJSONRecord.lines(of: decoded), options: options)
        expectedRecordCount = aligner.expectedLines.count
        decodedRecordCount = aligner.decodedLines.count
        let steps = aligner.run()
        var retained = 0
        for step in steps {
            let difference: RecordDifference
            switch step {
            case .pair(let old, let new):
                let expected = aligner.record(.expected, old), decoded = aligner.record(.decoded, new)
                guard let oldValue = expected.value, let newValue = decoded.value else { continue }
                var comparator = aligner.comparator
                comparator.recordType = expected.type
                let fields = comparator.differences(from: oldValue, to: newValue)
                guard !fields.isEmpty else { continue }
                tally.add(fields.map(\.kind), recordType: expected.type)
                let kept = Array(fields.prefix(max(0, (options.retainedDifferences ?? .max) - retained)))
                guard !kept.isEmpty else { continue }
                difference = RecordDifference(change: .changed, expected: expected, decoded: decoded, fieldDifferences: kept, differenceCount: fields.count)
                retained += kept.count
            case .moved(let old, let new):
                difference = RecordDifference(change: .moved, expected: aligner.record(.expected, old), decoded: aligner.record(.decoded, new))
            case .removed(let old):
                difference = RecordDifference(change: .removed, expected: aligner.record(.expected, old), decoded: nil)
            case .added(let new):
                difference = RecordDifference(change: .added, expected: nil, decoded: aligner.record(.decoded, new))
            }
            if difference.change != .changed {
                tally.add([difference.kind], recordType: difference.recordType)
                guard retained < options.retainedDifferences ?? .max else { continue }
                retained += 1
            }
            differences.append(difference)
        }
    }
}

/// A line compared and hashed as its UTF-8 bytes: records are compared as written, and a
/// decode's lines are too many and too long for `String`'s Unicode-aware comparison.
private struct LineText: Hashable {
    let text: Substring

    init(_ text: Substring) {
        self.text = text
    }

    static func == (lhs: LineText, rhs: LineText) -> Bool {
        lhs.text.utf8.count == rhs.text.utf8.count && lhs.withBytes { left in rhs.withBytes { left.elementsEqual($0) } }
    }

    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }

    private func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(text.utf8).withUnsafeBytes(body)
    }
}

/// The three-pass alignment behind `NDJSONComparison`.
private struct RecordAligner {
    enum Side { case expected, decoded }

    /// One thing the comparison reports on, by index into the included lines of each side.
    enum Step {
        case pair(Int, Int)
        case moved(Int, Int)
        case removed(Int)
        case added(Int)
    }

    /// The lines that take part (those of record types no pattern leaves out), with their line
    /// numbers.
    let expectedLines: [(line: Int, text: Substring)]
    let decodedLines: [(line: Int, text: Substring)]
    let comparator: JSONComparator
    let maximumEditDistance: Int
    private var expectedRecords: [Int: NDJSONRecord] = [:]
    private var decodedRecords: [Int: NDJSONRecord] = [:]

    init(expected: [Substring], decoded: [Substring], options: NDJSONComparison.Options) {
        comparator = JSONComparator(ignoring: options.ignoring, maximumEditDistance: options.maximumEditDistance)
        maximumEditDistance = options.maximumEditDistance
        // Patterns that can name a whole record (`TYPE:**`) need each line's type; others need
        // no line parsed yet.
        let recordPatterns = options.ignoring.filter { $0.coversRecords(ofType: $0.recordType) }
        func included(_ lines: [Substring]) -> [(line: Int, text: Substring)] {
            lines.enumerated().compactMap { index, text in
                if !recordPatterns.isEmpty {
                    let type = NDJSONRecord(line: index + 1, text: text).type
                    if recordPatterns.contains(where: { $0.coversRecords(ofType: type) }) { return nil }
                }
                return (index + 1, text)
            }
        }
        expectedLines = included(expected)
        decodedLines = included(decoded)
    }

    /// The record at `index` of `side`, parsed once when first needed.
    mutating func record(_ side: Side, _ index: Int) -> NDJSONRecord {
        switch side {
        case .expected:
            if let record = expectedRecords[index] { return record }
            let record = NDJSONRecord(line: expectedLines[index].line, text: expectedLines[index].text)
            expectedRecords[index] = record
            return record
        case .decoded:
            if let record = decodedRecords[index] { return record }
            let record = NDJSONRecord(line: decodedLines[index].line, text: decodedLines[index].text)
            decodedRecords[index] = record
            return record
        }
    }

    mutating func run() -> [Step] {
        var pairs: [(Int, Int)] = []
        var leftOld: [Int] = []
        var leftNew: [Int] = []
        // Pass 1: equal lines. They need no comparing; only what lies between them goes on.
        let byText = SequenceAlignment(
            expectedLines.map { LineText($0.text) }, decodedLines.map { LineText($0.text) }, maximumEditDistance: maximumEditDistance)
        var textMatches: [(Int, Int)] = byText.matches.map { ($0.old, $0.new) }
        var previous = (-1, -1)
        for match in textMatches + [(expectedLines.count, decodedLines.count)] {
            refine(Array(previous.0 + 1 ..< match.0), Array(previous.1 + 1 ..< match.1), pass: .identity,
                   pairs: &pairs, leftOld: &leftOld, leftNew: &leftNew)
            previous = match
        }

        // What is left on both sides with the same content moved.
        // Each content's records, last first, so that the first is taken off the end.
        var unalignedNew: [JSONValue: [Int]] = [:]
        for index in leftNew.reversed() { unalignedNew[contentKey(.decoded, index), default: []].append(index) }
        var moves: [(Int, Int)] = []
        var movedNew = Set<Int>()
        let removed = leftOld.filter { index in
            guard let target = unalignedNew[contentKey(.expected, index)]?.popLast() else { return true }
            moves.append((index, target))
            movedNew.insert(target)
            return false
        }
        let added = leftNew.filter { !movedNew.contains($0) }

        // In order of the expected side; an added record right after the expected record that
        // the decoded record before it is aligned with.
        textMatches += pairs
        var alignedOld = [Int](repeating: -1, count: decodedLines.count)
        for (old, new) in textMatches { alignedOld[new] = old }
        var anchors = [Int](repeating: -1, count: decodedLines.count)
        var anchor = -1
        for index in decodedLines.indices {
            anchors[index] = anchor
            anchor = max(anchor, alignedOld[index])
        }
        var steps: [(order: (Int, Int, Int), step: Step)] = []
        steps += pairs.map { (($0.0, 0, 0), .pair($0.0, $0.1)) }
        steps += moves.map { (($0.0, 0, 0), .moved($0.0, $0.1)) }
        steps += removed.map { (($0, 0, 0), .removed($0)) }
        steps += added.map { ((anchors[$0], 1, $0), .added($0)) }
        return steps.sorted { $0.order < $1.order }.map(\.step)
    }

    // MARK: Passes 2 and 3

    enum Pass { case identity, type }

    /// Aligns the records `old` and `new` (indexes, in order) by `pass`, and what that leaves by
    /// the next pass.
    private mutating func refine(
        _ old: [Int], _ new: [Int], pass: Pass?, pairs: inout [(Int, Int)], leftOld: inout [Int], leftNew: inout [Int]
    ) {
        guard let pass, !old.isEmpty, !new.isEmpty else {
            leftOld += old
            leftNew += new
            return
        }
        let oldKeys = old.map { key(pass, .expected, $0) }
        let newKeys = new.map { key(pass, .decoded, $0) }
        let alignment = SequenceAlignment(oldKeys, newKeys, maximumEditDistance: maximumEditDistance)
        var previous = (-1, -1)
        for match in alignment.matches.map({ ($0.old, $0.new) }) + [(old.count, new.count)] {
            refine(Array(old[previous.0 + 1 ..< match.0]), Array(new[previous.1 + 1 ..< match.1]), pass: pass == .identity ? .type : nil,
                   pairs: &pairs, leftOld: &leftOld, leftNew: &leftNew)
            if match.0 < old.count {
                if pass == .identity || similar(old[match.0], new[match.1]) {
                    pairs.append((old[match.0], new[match.1]))
                } else {
                    leftOld.append(old[match.0])
                    leftNew.append(new[match.1])
                }
            }
            previous = match
        }
    }

    /// What a record is aligned by in `pass`; a line that is not JSON matches nothing.
    private enum RecordKey: Hashable {
        case value(JSONValue)
        case unmatched(Side, Int)
    }

    private mutating func key(_ pass: Pass, _ side: Side, _ index: Int) -> RecordKey {
        let record = record(side, index)
        guard let value = record.value, value.objectValue != nil else { return .unmatched(side, index) }
        let members = pass == .identity ? NDJSONComparison.identityMembers : ["type"]
        var comparator = comparator
        comparator.recordType = record.type
        return .value(.array(members.map { member in
            comparator.isIgnored(FieldPath([.key(member)])) ? .null : JSONValue(value[member]?.content ?? .null)
        }))
    }

    /// Whether at least half the top-level members of the two records are equal (what is
    /// ignored left out).
    private mutating func similar(_ old: Int, _ new: Int) -> Bool {
        let expected = record(.expected, old), decoded = record(.decoded, new)
        var comparator = comparator
        comparator.recordType = expected.type
        guard let a = expected.value.map({ comparator.normalized($0) })?.objectValue,
              let b = decoded.value.map({ comparator.normalized($0) })?.objectValue else { return false }
        let oldMembers = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        let newMembers = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        let keys = Set(oldMembers.keys).union(newMembers.keys)
        let equal = keys.filter { oldMembers[$0] != nil && oldMembers[$0] == newMembers[$0] }.count
        return 2 * equal >= keys.count
    }

    /// A record's content without what is ignored, for finding moves; a line that is not JSON
    /// by its text.
    private mutating func contentKey(_ side: Side, _ index: Int) -> JSONValue {
        let record = record(side, index)
        guard let value = record.value else { return .array([.string(String(record.text))]) }
        var comparator = comparator
        comparator.recordType = record.type
        return JSONValue(comparator.normalized(value).content)
    }
}
