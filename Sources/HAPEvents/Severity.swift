/// How much a finding matters, least first: the order `--fail-on` compares with.
///
/// `high` is a security failure an attacker can use now (a request served without pair-verify,
/// a nonce used twice); `medium` weakens a security procedure or breaks a rule controllers
/// depend on; `low` is a conformance failure controllers usually survive; `info` is worth
/// knowing but breaks no rule a controller enforces.
public enum Severity: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case info
    case low
    case medium
    case high

    /// Reads the lower-case name used on the command line and in JSON: `info`, `low`, `medium`,
    /// `high` (any case); nil for anything else.
    public init?(name: some StringProtocol) {
        guard let severity = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = severity
    }

    /// The lower-case name, as JSON and `--fail-on` spell it.
    public var name: String {
        switch self {
        case .info: "info"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    public var description: String { name }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
}
