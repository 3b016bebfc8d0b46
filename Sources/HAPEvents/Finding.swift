import Packets

/// A verdict of the audit: one rule broken on one connection or by one accessory, with every
/// observation that shows it.
public struct Finding: Sendable, CustomStringConvertible {
    public let rule: AuditRule
    /// The rule's severity, or the one its evidence called for (see `AuditRule.severityReason`).
    public package(set) var severity: Severity
    /// Who departs from HAP: the rule's party, or the one its evidence names (the sender of a
    /// faulty frame, the signer of a bad signature).
    public let party: HAPParty
    /// The connection the rule was broken on; nil when the finding is about an accessory as a
    /// whole (its advertisements, its database, its setup code).
    public let connection: ConnectionInfo?
    /// The accessory concerned: its device ID, or the instance name it advertises, when known.
    public let accessory: String?
    /// The observations, in capture order.
    public package(set) var evidence: [Evidence] = []
    /// Observations beyond `AuditThresholds.maximumEvidencePerFinding`, counted but not kept.
    public package(set) var omittedEvidenceCount = 0

    public init(rule: AuditRule, severity: Severity, party: HAPParty? = nil, connection: ConnectionInfo?, accessory: String?) {
        self.rule = rule
        self.severity = severity
        self.party = party ?? rule.party
        self.connection = connection
        self.accessory = accessory
    }

    public var title: String { rule.title }
    public var explanation: String { rule.explanation }
    public var reference: String { rule.reference }

    /// The earliest packet of the evidence: where a reader starts.
    public var firstPacket: PacketInfo? {
        evidence.lazy.compactMap(\.packet).min { $0.number < $1.number }
    }

    /// The finding as plain text: a headline, who departs from HAP, where, why, the HAP rule,
    /// then one line per observation.
    ///
    /// ```
    /// HIGH pairing/unverified-request: Request served without pair-verify
    ///   departs from HAP: the accessory
    ///   on #2 10.77.0.1:49202 → 10.77.0.2:51826
    ///   why: The accessory answered …
    ///   rule: PROTOCOL.md §0 …
    ///   evidence:
    ///     packet #34 (1796012651.251953 s): the plaintext request GET /accessories …
    /// ```
    public var description: String {
        var lines = ["\(severity.name.uppercased()) \(rule.id): \(title)", "  departs from HAP: the \(party)"]
        if let connection {
            lines.append("  on \(connection)")
        } else if let accessory {
            lines.append("  accessory \(accessory)")
        }
        lines.append("  why: \(explanation)")
        lines.append("  rule: \(reference)")
        lines.append("  evidence:")
        lines += evidence.map { "    \($0.description(omitting: connection))" }
        if omittedEvidenceCount > 0 {
            lines.append("    … and \(omittedEvidenceCount) more observations, not listed")
        }
        return lines.joined(separator: "\n")
    }
}

extension Sequence<Finding> {
    /// Whether any finding is at least as severe as `threshold`: the `--fail-on` test that
    /// decides a CI run's exit status.
    public func reachSeverity(_ threshold: Severity) -> Bool {
        contains { $0.severity >= threshold }
    }

    /// The severity of the most severe finding; nil when there is none.
    public var highestSeverity: Severity? {
        lazy.map(\.severity).max()
    }
}
