import HAPEvents
import HAPJSON
import Packets

/// The attribute database and characteristic values: `duplicate-aid`, `duplicate-iid`,
/// `invalid-json`, `missing-accessory-information`, `value-out-of-range`, `unknown-apple-type`,
/// `malformed-entry` and `write-rejected`.
struct DatabasePolicy: AuditPolicy {
    /// Rejected writes per connection and HAP status, reported when the connection closes so
    /// that each status is one line of evidence.
    private var rejectedWrites: [Int: [HAPStatus: RejectedWrites]] = [:]
    private var fetchCounts: [Int: Int] = [:]

    /// Writes named per status; beyond it they are only counted.
    static let listedWritesPerStatus = 20

    private struct RejectedWrites {
        let firstPacket: PacketInfo
        let connection: ConnectionInfo
        var count = 0
        var writes: [String] = []
    }

    /// Which rule each database diagnostic belongs to; codes not listed are no finding (notes
    /// such as a non-HAP key, or codes of other bodies).
    private static let rules: [HAPJSONDiagnostic.Code: AuditRule] = [
        .duplicateAID: .duplicateAID,
        .duplicateIID: .duplicateIID,
        .missingAccessoryInformation: .missingAccessoryInformation,
        .duplicateAccessoryInformation: .missingAccessoryInformation,
        .missingRequiredCharacteristic: .missingAccessoryInformation,
        .serialNumberLength: .missingAccessoryInformation,
        .nameLength: .missingAccessoryInformation,
        .manufacturerLength: .missingAccessoryInformation,
        .modelLength: .missingAccessoryInformation,
        .unknownAppleServiceType: .unknownAppleType,
        .unknownAppleCharacteristicType: .unknownAppleType,
        .valueWrongFormat: .valueOutOfRange,
        .valueOutOfBounds: .valueOutOfRange,
        .valueOffStep: .valueOutOfRange,
        .valueNotInValidValues: .valueOutOfRange,
        .valueTooLong: .valueOutOfRange,
        .valueInvalidBase64: .valueOutOfRange,
        .duplicateKey: .malformedEntry,
        .malformedAccessory: .malformedEntry,
        .malformedService: .malformedEntry,
        .malformedCharacteristic: .malformedEntry,
        .invalidField: .malformedEntry,
        .missingField: .malformedEntry,
        .unknownPermission: .malformedEntry,
        .unknownFormat: .malformedEntry,
        .unknownUnit: .malformedEntry,
    ]

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .accessoryDatabase(let database):
            accessoryDatabase(database, packet: event.packet, in: context, findings: &findings)
        case .characteristic(let activity):
            characteristic(activity, packet: event.packet, in: context, findings: &findings)
        case .connectionClosed(let summary):
            fetchCounts.removeValue(forKey: summary.connection.id)
            reportRejectedWrites(on: summary.connection.id, findings: &findings)
        case .inputEnded:
            for id in rejectedWrites.keys.sorted() { reportRejectedWrites(on: id, findings: &findings) }
        default:
            break
        }
    }

    private mutating func accessoryDatabase(
        _ event: AccessoryDatabaseEvent, packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        let connection = event.connection
        let accessory = context.accessoryKey(of: connection.id) ?? connection.accessory.description
        let fetch = fetchCounts[connection.id, default: 0] + 1
        fetchCounts[connection.id] = fetch
        if let error = event.error {
            findings.record(.invalidJSON, .accessory(accessory), Evidence(
                packet: packet, connection: connection,
                detail: "GET /accessories response #\(fetch) on this connection (\(event.bodyByteCount)-byte body) is not "
                    + "valid JSON: \(error) (byte offsets count from the start of the body)"))
        }
        guard let database = event.database else { return }
        for diagnostic in database.diagnostics + database.conformanceIssues() where diagnostic.severity > .note {
            guard let rule = Self.rules[diagnostic.code] else { continue }
            // The same problem in a later fetch is the same evidence, counted: the words name no fetch.
            // A service and a characteristic sharing an iid break a rule fewer sources confirm.
            let severity: Severity? = rule == .duplicateIID && diagnostic.severity == .warning ? .low : nil
            let path = diagnostic.path.isEmpty ? "/" : diagnostic.path
            findings.record(rule, .accessory(accessory), severity: severity, Evidence(
                packet: packet, connection: connection,
                detail: "GET /accessories response, body byte \(diagnostic.offset) (\(path)): \(diagnostic.message)"))
        }
    }

    private mutating func characteristic(
        _ activity: CharacteristicActivity, packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        let name = activity.name.map { " (\($0))" } ?? ""
        switch activity.kind {
        case .read, .event:
            guard let value = activity.value else { return }
            let issues = value.issues.filter { $0.severity > .note }
            guard !issues.isEmpty else { return }
            let accessory = context.accessoryKey(of: activity.connection.id) ?? activity.connection.accessory.description
            let source = activity.kind == .read ? "a read of" : "an EVENT for"
            findings.record(.valueOutOfRange, .accessory(accessory), Evidence(
                packet: packet, connection: activity.connection,
                detail: "\(source) \(activity.id)\(name) gave \(value.value), "
                    + issues.map(\.description).joined(separator: " and ")))
        case .write, .subscribe, .unsubscribe:
            guard let status = activity.status, let packet else { return }
            let written = switch activity.kind {
            case .write: activity.value.map { "\($0.value)" } ?? "a value"
            case .subscribe: "ev true"
            default: "ev false"
            }
            let id = activity.connection.id
            var group = rejectedWrites[id]?[status] ?? RejectedWrites(firstPacket: packet, connection: activity.connection)
            group.count += 1
            if group.writes.count < Self.listedWritesPerStatus {
                group.writes.append("\(activity.id)\(name) ← \(written) (packet #\(packet.number))")
            }
            rejectedWrites[id, default: [:]][status] = group
        }
    }

    private mutating func reportRejectedWrites(on connectionID: Int, findings: inout FindingLedger) {
        guard let groups = rejectedWrites.removeValue(forKey: connectionID) else { return }
        let ordered = groups.sorted { lhs, rhs in
            (lhs.value.firstPacket.number, lhs.key.rawValue) < (rhs.value.firstPacket.number, rhs.key.rawValue)
        }
        for (status, group) in ordered {
            findings.record(.writeRejected, .connection(group.connection), Evidence(
                packet: group.firstPacket, connection: group.connection,
                detail: "\(group.count) write(s) rejected with status \(status): "
                    + group.writes.joined(separator: ", ") + (group.count > group.writes.count ? ", …" : "")))
        }
    }
}
