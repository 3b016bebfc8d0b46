import Packets

/// An audit finding as reports show it. The audit produces richer values; reports need only
/// this, so renderers do not depend on how rules are implemented.
public struct ReportFinding: Sendable, Hashable {
    /// Ordered from least to most severe.
    public enum Severity: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        case info, low, medium, high

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .info: "info"
            case .low: "low"
            case .medium: "medium"
            case .high: "high"
            }
        }
    }

    /// One piece of evidence: where to look, and what is there.
    public struct Evidence: Sendable, Hashable {
        public let packet: Int?
        public let time: Timestamp?
        /// `#3 10.0.0.1:49201 → 10.0.0.2:51826`, or nil for evidence not tied to a connection.
        public let connection: String?
        public let detail: String

        public init(packet: Int?, time: Timestamp?, connection: String?, detail: String) {
            self.packet = packet
            self.time = time
            self.connection = connection
            self.detail = detail
        }
    }

    /// The stable rule ID, e.g. `session/nonce-skip`.
    public let rule: String
    public let severity: Severity
    public let title: String
    /// Why it matters, with the HAP rule it breaks.
    public let explanation: String
    public let evidence: [Evidence]

    public init(rule: String, severity: Severity, title: String, explanation: String, evidence: [Evidence]) {
        self.rule = rule
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.evidence = evidence
    }
}
