/// How many differences of each kind, and in which record types: the counts every report of a
/// comparison gives, however many differences it shows.
public struct DifferenceTally: Hashable, Sendable, CustomStringConvertible {
    public private(set) var byKind: [DifferenceKind: Int] = [:]
    /// Differences by the `type` of the record they are in; `(not JSON)` for lines that are not.
    public private(set) var byRecordType: [String: Int] = [:]
    /// How many records have at least one difference.
    public private(set) var records = 0

    public init() {}

    /// All differences.
    public var total: Int { byKind.values.reduce(0, +) }

    /// The record type lines that are not JSON are counted under.
    public static let notJSON = "(not JSON)"

    /// Counts the differences of one record.
    public mutating func add(_ kinds: [DifferenceKind], recordType: String?) {
        guard !kinds.isEmpty else { return }
        records += 1
        for kind in kinds { byKind[kind, default: 0] += 1 }
        byRecordType[recordType ?? Self.notJSON, default: 0] += kinds.count
    }

    /// `1 changed, 2 record added`: the kinds present, in `DifferenceKind.all` order.
    public var kindsText: String {
        byKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.phrase)" }.joined(separator: ", ")
    }

    /// `accessory-database 1, characteristic 2`: record types by name.
    public var recordTypesText: String {
        byRecordType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// `3 differences in 2 records: 1 changed, 2 record added`, or `no difference`.
    public var description: String {
        guard total > 0 else { return "no difference" }
        let differences = total == 1 ? "1 difference" : "\(total) differences"
        let records = records == 1 ? "1 record" : "\(records) records"
        return "\(differences) in \(records): \(kindsText)"
    }
}
