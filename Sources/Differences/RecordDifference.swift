import HAPJSON

/// What differs about one record of two NDJSON sequences: its members changed, or the whole
/// record was added, removed or moved.
public struct RecordDifference: Sendable {
    public enum Change: String, Hashable, Sendable {
        /// On both sides, with different members (`fieldDifferences`).
        case changed
        /// Only in the new sequence (`decoded`).
        case added
        /// Only in the old sequence (`expected`).
        case removed
        /// On both sides, unchanged, elsewhere in the sequence.
        case moved
    }

    public var change: Change
    /// The record in the old sequence (the expected decode); nil when added.
    public var expected: NDJSONRecord?
    /// The record in the new sequence (the decode); nil when removed.
    public var decoded: NDJSONRecord?
    /// The differences of a changed record that were kept (`NDJSONComparison.Options
    /// .retainedDifferences`).
    public var fieldDifferences: [JSONDifference]
    /// How many differences the record has, kept or not: 1 for an added, removed or moved record.
    public var differenceCount: Int

    public init(change: Change, expected: NDJSONRecord?, decoded: NDJSONRecord?, fieldDifferences: [JSONDifference] = [], differenceCount: Int = 1) {
        self.change = change
        self.expected = expected
        self.decoded = decoded
        self.fieldDifferences = fieldDifferences
        self.differenceCount = differenceCount
    }

    /// The record as it best describes itself: the expected one where there is one.
    public var record: NDJSONRecord { (expected ?? decoded)! }

    /// The record's `type`.
    public var recordType: String? { record.type }

    /// The kind every difference of the record is counted as.
    public var kind: DifferenceKind {
        switch change {
        case .changed: .changed
        case .added: .recordAdded
        case .removed: .recordRemoved
        case .moved: .recordMoved
        }
    }

    /// A field difference in the accessory's own terms, read from the side it is on.
    public func terms(for difference: JSONDifference) -> AccessoryTerms? {
        if let path = difference.oldPath, let value = expected?.value {
            return AccessoryTerms(path: path, in: value, recordType: expected?.type)
        }
        if let path = difference.newPath, let value = decoded?.value {
            return AccessoryTerms(path: path, in: value, recordType: decoded?.type)
        }
        return nil
    }
}
