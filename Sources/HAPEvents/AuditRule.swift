/// One check the audit makes: a stable identifier, the severity its findings usually have, and
/// the words a report shows next to them.
///
/// Rules are values from a fixed catalogue (`AuditRule.catalogue`); two rules are the same rule
/// when their identifiers are equal.
public struct AuditRule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The part of HAP a rule is about: the first half of its identifier.
    public enum Category: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Pair setup, pair verify and `/pairings`: who may talk to the accessory.
        case pairing
        /// The encrypted session and the HTTP exchanges inside it.
        case session
        /// Bonjour advertisements (`_hap._tcp`).
        case discovery
        /// The attribute database (`/accessories`) and characteristic values.
        case database

        public var description: String { rawValue }
    }

    public let category: Category
    /// The short name the truth files and users grep for: `unverified-request`.
    public let slug: String
    /// The severity of a typical finding. Some findings of a rule are raised or lowered with
    /// their evidence (a forged SRP key the accessory accepted is high, one it refused low);
    /// `severityReason` says when.
    public let severity: Severity
    /// Why the rule has its severity, in one line.
    public let severityReason: String
    /// Who departs from HAP when the rule is broken: the accessory, or the controller. Some
    /// findings name the other party (a frame fault is its sender's); `Finding.party` says.
    public let party: HAPParty
    /// One line naming what is wrong.
    public let title: String
    /// Why it matters: what an attacker or a controller can do because of it.
    public let explanation: String
    /// The HAP rule broken, citing `docs/PROTOCOL.md` sections.
    public let reference: String

    public init(
        _ category: Category, _ slug: String, severity: Severity, because severityReason: String, party: HAPParty,
        title: String, explanation: String, reference: String
    ) {
        self.category = category
        self.slug = slug
        self.severity = severity
        self.severityReason = severityReason
        self.party = party
        self.title = title
        self.explanation = explanation
        self.reference = reference
    }

    /// `category/slug`, e.g. `pairing/unverified-request`: stable across releases.
    public var id: String { "\(category.rawValue)/\(slug)" }

    /// `pairing/unverified-request (high): Request served without pair-verify`.
    public var description: String { "\(id) (\(severity)): \(title)" }

    public static func == (lhs: AuditRule, rhs: AuditRule) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
