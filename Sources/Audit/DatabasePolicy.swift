import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import WireParsing

/// The attribute database and characteristic values: `duplicate-aid`, `duplicate-iid`,
/// `invalid-json`, `missing-accessory-information`, `value-out-of-range`, `unknown-apple-type`,
/// `malformed-entry` and `write-rejected`.
struct DatabasePolicy: AuditPolicy {
    /// Rejected writes per connection and HAP status, reported when the connection closes so
    /// that each status is one line of evidence.
    private var rejectedWrites: [Int: [HAPStatus: RejectedWrites]] = [:]
    private var fetchCounts: [Int: Int] = [:]
    private let maximumDatabaseBytes: Int

    init(thresholds: AuditThresholds) {
        maximumDatabaseBytes = thresholds.maximumDatabaseBytes
    }

    /// Writes named per status; beyond it they are only counted.
    static let listedWritesPerStatus = 20

    private struct RejectedWrites {
        let firstPacket: PacketInfo
        let connection: ConnectionInfo
        /// The HAP PDU status the first was answered with (HAP-BLE, HAP over CoAP).
        let pduStatus: HAPPDUStatus?
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
        .incompleteAccessoryInformation: .missingAccessoryInformation,
        .missingRequiredCharacteristic: .missingRequiredCharacteristic,
        .unexpectedCharacteristic: .unexpectedCharacteristic,
        .invalidName: .invalidName,
        .invalidPermissions: .invalidPermissions,
        .unknownPermission: .invalidPermissions,
        .duplicateName: .duplicateName,
        .formatMismatch: .formatMismatch,
        .unitMismatch: .unitMismatch,
        .tooManyAccessories: .tooManyAccessories,
        .tooManyServices: .tooManyServices,
        .tooManyCharacteristics: .tooManyCharacteristics,
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
        .unknownFormat: .malformedEntry,
        .unknownUnit: .malformedEntry,
    ]

    /// The severity a diagnostic calls for when it is not its rule's.
    static func severity(of diagnostic: HAPJSONDiagnostic) -> Severity? {
        switch diagnostic.code {
        // A service and a characteristic sharing an iid break a rule fewer sources confirm.
        case .duplicateIID where diagnostic.severity == .warning: .low
        // ADK refuses these lengths, but the Home app accepts an empty Model (HAP-python's default
        // accessories, issue 17): only the serial number's minimum is known to be enforced.
        case .nameLength, .manufacturerLength, .modelLength: .low
        // An undefined perm next to defined ones is skipped; no perms at all is the rule's case.
        case .unknownPermission: .low
        default: nil
        }
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        // A database from elsewhere (an earlier file, --accessories) is audited where it was read.
        case .accessoryDatabase(let database) where database.source == .response:
            accessoryDatabase(database, packet: event.packet, in: context, findings: &findings)
        case .databaseDump(let dump):
            databaseDump(dump, findings: &findings)
        case .characteristic(let activity):
            characteristic(activity, packet: event.packet, in: context, findings: &findings)
        case .problem(let problem):
            guard let body = problem.body, body.kind.isFromAccessory, let connection = problem.connection else { return }
            malformedBody(body, on: connection, packet: event.packet, in: context, findings: &findings)
        case .connectionClosed(let summary):
            fetchCounts.removeValue(forKey: summary.connection.id)
            reportRejectedWrites(on: summary.connection.id, findings: &findings)
        case .inputEnded:
            for id in rejectedWrites.keys.sorted() { reportRejectedWrites(on: id, findings: &findings) }
        default:
            break
        }
    }

    /// Where a database was read, as its evidence names it.
    private struct Source {
        let scope: FindingScope
        let packet: PacketInfo?
        let connection: ConnectionInfo?
        /// `GET /accessories response #2 on this connection`, `dump.json`.
        let whole: String
        /// How a byte offset in it is introduced: `GET /accessories response, body byte`.
        let byte: String
        let transport: DatabaseTransport
    }

    private mutating func accessoryDatabase(
        _ event: AccessoryDatabaseEvent, packet: PacketInfo?, in context: AuditContext, findings: inout FindingLedger
    ) {
        let connection = event.connection
        let accessory = context.accessoryKey(of: connection.id) ?? connection.accessory.description
        let fetch = fetchCounts[connection.id, default: 0] + 1
        fetchCounts[connection.id] = fetch
        // The same problem in a later fetch is the same evidence, counted: `byte` names no fetch.
        // Each transport reads the database its own way, and judges it by its own rules.
        let read: String
        let transport: DatabaseTransport
        switch connection.transport {
        case .ip: (read, transport) = ("GET /accessories response", .ip)
        case .coap: (read, transport) = ("database read (PDU opcode 0x09) response", .bluetoothOrThread)
        case .bluetoothLE: (read, transport) = ("database from signature reads", .bluetoothOrThread)
        }
        let source = Source(
            scope: .accessory(accessory), packet: packet, connection: connection,
            whole: "\(read) #\(fetch) on this connection", byte: "\(read), body byte", transport: transport)
        judge(event.database, error: event.error, byteCount: event.bodyByteCount, from: source, findings: &findings)
    }

    /// A dump is judged by the rules of one database: no connection, no reads or writes.
    private func databaseDump(_ event: DatabaseDumpEvent, findings: inout FindingLedger) {
        let source = Source(
            scope: .accessory(event.name), packet: nil, connection: nil, whole: event.name, byte: "\(event.name), byte",
            transport: event.dump?.origin.transport ?? .ip)
        judge(event.dump?.database, error: event.error, byteCount: event.byteCount, from: source, findings: &findings)
    }

    private func judge(
        _ database: AccessoryDatabase?, error: DecodeError?, byteCount: Int, from source: Source, findings: inout FindingLedger
    ) {
        if let error {
            findings.record(.invalidJSON, source.scope, Evidence(
                packet: source.packet, connection: source.connection,
                detail: "\(source.whole) (\(byteCount) bytes) is not valid JSON: \(error) (byte offsets count from its start)"))
        }
        if byteCount > maximumDatabaseBytes {
            findings.record(.databaseTooLarge, source.scope, Evidence(
                packet: source.packet, connection: source.connection,
                detail: "\(source.whole) is \(byteCount) bytes, more than the \(maximumDatabaseBytes) bytes "
                    + "(AuditThresholds.maximumDatabaseBytes) taken as the largest a controller reads"))
        }
        guard let database else { return }
        for diagnostic in database.diagnostics + database.conformanceIssues(transport: source.transport)
        where diagnostic.severity > .note {
            guard let rule = Self.rules[diagnostic.code] else { continue }
            let path = diagnostic.path.isEmpty ? "/" : diagnostic.path
            findings.record(rule, source.scope, severity: Self.severity(of: diagnostic), Evidence(
                packet: source.packet, connection: source.connection,
                detail: "\(source.byte) \(diagnostic.offset) (\(path)): \(diagnostic.message)"))
        }
    }

    /// HAP: `/characteristics` bodies are JSON (PROTOCOL §5.2). ADK's read responses to perms=1
    /// or ev=1 are not (`HAPIPAccessoryProtocolGetCharacteristicReadResponseBytes`).
    private func malformedBody(
        _ body: UndecodableBody, on connection: ConnectionInfo, packet: PacketInfo?, in context: AuditContext,
        findings: inout FindingLedger
    ) {
        let accessory = context.accessoryKey(of: connection.id) ?? connection.accessory.description
        let request = body.request.map { " to \($0.method) \($0.target) (packet #\($0.packet.number))" } ?? ""
        findings.record(.malformedCharacteristicsBody, .accessory(accessory), Evidence(
            packet: packet, connection: connection,
            detail: "the \(body.kind)\(request), a \(body.byteCount)-byte body, is not valid JSON: \(body.error) (byte "
                + "offsets count from the start of the body)"))
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
            var group = rejectedWrites[id]?[status] ?? RejectedWrites(
                firstPacket: packet, connection: activity.connection, pduStatus: activity.pduStatus)
            group.count += 1
            if group.writes.count < Self.listedWritesPerStatus {
                group.writes.append("\(activity.id)\(name) ← \(written) (packet #\(packet.number))")
            }
            rejectedWrites[id, default: [:]][status] = group
        }
    }

    /// The statuses that say the controller asked for what the database forbids (HAP: status
    /// codes); the others say the accessory failed to do what it was asked.
    private static let controllerStatuses: Set<HAPStatus> = [
        .insufficientPrivileges, .readOnlyCharacteristic, .writeOnlyCharacteristic, .notificationNotSupported,
        .resourceDoesNotExist, .invalidValue, .insufficientAuthorization, .notAllowedInCurrentState,
    ]

    static func party(rejecting status: HAPStatus) -> HAPParty {
        controllerStatuses.contains(status) ? .controller : .accessory
    }

    private mutating func reportRejectedWrites(on connectionID: Int, findings: inout FindingLedger) {
        guard let groups = rejectedWrites.removeValue(forKey: connectionID) else { return }
        let ordered = groups.sorted { lhs, rhs in
            (lhs.value.firstPacket.number, lhs.key.rawValue) < (rhs.value.firstPacket.number, rhs.key.rawValue)
        }
        for (status, group) in ordered {
            findings.record(.writeRejected, .connection(group.connection), party: Self.party(rejecting: status), Evidence(
                packet: group.firstPacket, connection: group.connection,
                detail: "\(group.count) write(s) rejected with status \(status)"
                    + (group.pduStatus.map { " (PDU status \($0))" } ?? "") + ": "
                    + group.writes.joined(separator: ", ") + (group.count > group.writes.count ? ", …" : "")))
        }
    }
}
