import HAPEvents
import Packets

/// What a finding is about, and so what makes two observations one finding: a rule broken on
/// one connection, by one accessory, or by what the user said about the capture as a whole.
enum FindingScope: Hashable {
    case connection(ConnectionInfo)
    /// An accessory, named by its device ID (or, for discovery, by its instance name).
    case accessory(String)
    /// The input as a whole (the setup code the user gave).
    case capture
}

/// Gathers observations into findings, one per rule and scope, keeping the evidence bounded.
struct FindingLedger {
    private struct Key: Hashable {
        let rule: String
        let scope: FindingScope
        /// Who departs from HAP: a rule broken by both parties on one connection is two findings.
        let party: HAPParty
    }

    private var findings: [Finding] = []
    private var indexes: [Key: Int] = [:]
    /// Where each kept observation sits, so a recurring one is counted instead of repeated.
    private var evidenceIndexes: [Int: [EvidenceKey: Int]] = [:]
    private let maximumEvidence: Int

    private struct EvidenceKey: Hashable {
        let connection: Int?
        let detail: String
    }

    init(maximumEvidencePerFinding: Int) {
        maximumEvidence = max(1, maximumEvidencePerFinding)
    }

    /// Records one observation. The finding's severity becomes the highest any of its
    /// observations called for (`severity`, or the rule's own); `party` names who departs from
    /// HAP when it is not the rule's party.
    mutating func record(
        _ rule: AuditRule, _ scope: FindingScope, severity: Severity? = nil, party: HAPParty? = nil, accessory: String? = nil,
        _ evidence: Evidence
    ) {
        let party = party ?? rule.party
        let key = Key(rule: rule.id, scope: scope, party: party)
        let index: Int
        if let existing = indexes[key] {
            index = existing
        } else {
            index = findings.count
            indexes[key] = index
            let connection: ConnectionInfo?
            let subject: String?
            switch scope {
            case .connection(let info): (connection, subject) = (info, accessory)
            case .accessory(let name): (connection, subject) = (nil, name)
            case .capture: (connection, subject) = (nil, nil)
            }
            findings.append(Finding(
                rule: rule, severity: severity ?? rule.severity, party: party, connection: connection, accessory: subject))
        }
        findings[index].severity = max(findings[index].severity, severity ?? rule.severity)

        let evidenceKey = EvidenceKey(connection: evidence.connection?.id, detail: evidence.detail)
        if let seen = evidenceIndexes[index]?[evidenceKey] {
            findings[index].evidence[seen].occurrences += 1
            findings[index].evidence[seen].lastPacket = evidence.packet
        } else if findings[index].evidence.count < maximumEvidence {
            evidenceIndexes[index, default: [:]][evidenceKey] = findings[index].evidence.count
            findings[index].evidence.append(evidence)
        } else {
            findings[index].omittedEvidenceCount += 1
        }
    }

    /// The rules of the findings with evidence in `packet`, in the order they were found: what the
    /// audit held against the message that packet completed.
    func rules(withEvidenceAt packet: PacketInfo) -> [AuditRule] {
        var rules: [AuditRule] = []
        for finding in findings where finding.evidence.contains(where: { $0.packet?.number == packet.number }) {
            if !rules.contains(finding.rule) { rules.append(finding.rule) }
        }
        return rules
    }

    /// Every finding, most severe first, then in the order their evidence starts in the capture;
    /// the evidence of each in capture order.
    var sortedFindings: [Finding] {
        let ordered = findings.map { finding in
            var finding = finding
            // Some observations are judged only when their connection closes, after later ones.
            finding.evidence = finding.evidence.enumerated().sorted { lhs, rhs in
                let left = lhs.element.packet?.number ?? 0
                let right = rhs.element.packet?.number ?? 0
                return left != right ? left < right : lhs.offset < rhs.offset
            }.map(\.element)
            return finding
        }
        return ordered.enumerated().sorted { lhs, rhs in
            if lhs.element.severity != rhs.element.severity { return lhs.element.severity > rhs.element.severity }
            let left = lhs.element.firstPacket?.number ?? Int.max
            let right = rhs.element.firstPacket?.number ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
