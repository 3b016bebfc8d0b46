import HAPEvents
import Packets

/// A finding as every renderer shows it (text, JSON, HTML): the explanation with the HAP rule it
/// cites, and one row per observation, a recurring one counted in its row.
extension Finding {
    /// One observation: where to look, and what is there.
    struct EvidenceRow {
        let packet: Int?
        let time: Timestamp?
        /// `#3 10.0.0.1:49201 → 10.0.0.2:51826`, or nil for evidence not tied to a connection.
        let connection: String?
        let detail: String
    }

    /// Why it matters, with the rule it breaks.
    var explanationWithReference: String { reference.isEmpty ? explanation : explanation + " (" + reference + ")" }

    var evidenceRows: [EvidenceRow] {
        var rows = evidence.map { item in
            EvidenceRow(
                packet: item.packet?.number, time: item.time, connection: item.connection?.description,
                detail: item.occurrences > 1
                    ? "\(item.detail) (\(item.occurrences) times, last #\(item.lastPacket?.number ?? item.packet?.number ?? 0))"
                    : item.detail)
        }
        if omittedEvidenceCount > 0 {
            rows.append(EvidenceRow(packet: nil, time: nil, connection: nil, detail: "\(omittedEvidenceCount) more occurrences not listed"))
        }
        return rows
    }
}
