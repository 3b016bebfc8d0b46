import HAPEvents
import Packets

extension Finding {
    /// A finding made by hand, for testing how reports show findings: `rule` is
    /// `category/slug`, each piece of evidence its packet number (nil: capture-wide), time,
    /// connection and words; `reference` is left empty, so the explanation is shown as given.
    public static func example(
        _ rule: String, _ severity: Severity, party: HAPParty = .accessory, title: String, explanation: String,
        evidence: [(packet: Int?, time: Timestamp?, connection: ConnectionInfo?, detail: String)] = []
    ) -> Finding {
        let parts = rule.split(separator: "/", maxSplits: 1).map(String.init)
        let category = AuditRule.Category(rawValue: parts[0]) ?? .session
        var finding = Finding(
            rule: AuditRule(category, parts.count > 1 ? parts[1] : rule, severity: severity, because: "an example",
                            party: party, title: title, explanation: explanation, reference: ""),
            severity: severity, connection: nil, accessory: nil)
        finding.evidence = evidence.map { item in
            Evidence(
                packet: item.packet.map { PacketInfo(number: $0, timestamp: item.time ?? Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 0, originalLength: 0) },
                connection: item.connection, detail: item.detail)
        }
        return finding
    }
}
