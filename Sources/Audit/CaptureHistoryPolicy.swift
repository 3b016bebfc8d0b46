import Differences
import DNS
import HAPEvents
import HAPJSON
import Packets

/// One accessory across the captures of a run: `config-number-not-bumped`,
/// `config-number-changed-without-change` and `iid-renumbered`. Each capture's first
/// `/accessories` and first advertised `c#` are compared with the last ones of the previous
/// capture that showed the same accessory, with the difference engine of `hapscope diff`
/// (`AccessoryDatabaseComparison`).
///
/// "The same accessory" is the same device ID, and the same long-term key where both captures
/// reveal it (pair setup M6): an accessory reset to factory settings draws a new key, and test
/// rigs reuse device IDs.
struct CaptureHistoryPolicy: AuditPolicy {
    private let maximumAccessories: Int
    /// The run's inputs so far; the last is the one being read.
    private var inputs: [String] = []
    /// What the current capture has shown of each accessory.
    private var current: [String: Appearance] = [:]
    /// What the latest earlier capture showed of each accessory.
    private var previous: [String: Appearance] = [:]

    /// Member changes a configuration number does not stand for: values, and the reading
    /// connection's subscriptions.
    private static let volatileMembers: [IgnorePattern] = ["**.value", "**.ev"].compactMap { try? IgnorePattern($0) }
    /// Renumbered elements named in one observation; the rest are counted.
    static let listedChanges = 8

    /// One accessory in one capture.
    private struct Appearance {
        var input: String
        var firstDatabase: (json: JSONValue, packet: PacketInfo, connection: ConnectionInfo)?
        var lastDatabase: (json: JSONValue, packet: PacketInfo)?
        var firstConfigurationNumber: (value: UInt64, packet: PacketInfo)?
        var lastConfigurationNumber: UInt64?
        var longTermKey: [UInt8]?
        var judged = false
    }

    init(thresholds: AuditThresholds) {
        maximumAccessories = thresholds.maximumRememberedValues
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .inputOpened(let input):
            // Accessories the new capture does not show keep what an earlier one showed.
            for (accessory, appearance) in current where appearance.lastDatabase != nil {
                previous[accessory] = appearance
            }
            current.removeAll()
            inputs.append(input.name)
        case .advertisement(let advertisement):
            guard let packet = event.packet, advertisement.isResponse, !advertisement.service.isGoodbye,
                  let txt = advertisement.service.hap, let deviceID = txt.deviceID, let number = txt.configurationNumber
            else { return }
            let accessory = AuditContext.accessoryKey(deviceID: deviceID)
            update(accessory) { appearance in
                if appearance.firstConfigurationNumber == nil { appearance.firstConfigurationNumber = (number, packet) }
                appearance.lastConfigurationNumber = number
            }
            judge(accessory, findings: &findings)
        case .pairingExchange(let exchange):
            guard let key = exchange.accessoryLTPK, let accessory = context.accessoryKey(of: exchange.connection.id) else { return }
            update(accessory) { $0.longTermKey = key }
        case .accessoryDatabase(let database) where database.source == .response:
            guard let packet = event.packet, let json = database.database?.json,
                  let accessory = context.accessoryKey(of: database.connection.id) else { return }
            update(accessory) { appearance in
                if appearance.firstDatabase == nil { appearance.firstDatabase = (json, packet, database.connection) }
                appearance.lastDatabase = (json, packet)
            }
            judge(accessory, findings: &findings)
        default:
            break
        }
    }

    private mutating func update(_ accessory: String, _ change: (inout Appearance) -> Void) {
        guard current[accessory] != nil || current.count < maximumAccessories else { return }
        var appearance = current[accessory] ?? Appearance(input: inputs.last ?? "the capture")
        change(&appearance)
        current[accessory] = appearance
    }

    /// Judges the accessory once this capture has shown both its database and its c#.
    private mutating func judge(_ accessory: String, findings: inout FindingLedger) {
        guard let now = current[accessory], !now.judged, let database = now.firstDatabase, let number = now.firstConfigurationNumber,
              let before = previous[accessory], let oldDatabase = before.lastDatabase, let oldNumber = before.lastConfigurationNumber
        else { return }
        current[accessory]?.judged = true
        if let oldKey = before.longTermKey, let newKey = now.longTermKey, oldKey != newKey { return }
        guard let comparison = AccessoryDatabaseComparison(old: oldDatabase.json, new: database.json, ignoring: Self.volatileMembers)
        else { return }
        let since = "the last /accessories of \(before.input) (packet #\(oldDatabase.packet.number))"
        let advertised = "its first advertisement here (packet #\(number.packet.number)) carries c#=\(number.value)"
        let changes = comparison.changes
        if changes.isEmpty, number.value != oldNumber {
            findings.record(.configurationNumberChangedWithoutChange, .accessory(accessory), Evidence(
                packet: database.packet, connection: database.connection,
                detail: "the first /accessories of \(now.input) (packet #\(database.packet.number)) has the accessories, "
                    + "services and characteristics of \(since), yet \(advertised) where \(before.input) ended with "
                    + "c#=\(oldNumber)"))
        } else if !changes.isEmpty, number.value == oldNumber {
            findings.record(.configurationNumberNotBumped, .accessory(accessory), Evidence(
                packet: database.packet, connection: database.connection,
                detail: "this first /accessories of \(now.input) differs from \(since) in \(Self.list(changes)), yet "
                    + "\(advertised), as \(before.input) ended"))
        }
        let renumbered = changes.filter { $0.kind == .renumbered }
        if !renumbered.isEmpty {
            findings.record(.iidRenumbered, .accessory(accessory), Evidence(
                packet: database.packet, connection: database.connection,
                detail: "this first /accessories of \(now.input) numbers \(renumbered.count) element(s) of the same type at "
                    + "the same place otherwise than \(since): \(Self.list(renumbered))"))
        }
    }

    /// `accessory 4 Late Switch added, 2.9 → 2.109 On renumbered, … (12 in all)`.
    private static func list(_ changes: [DatabaseChange]) -> String {
        let listed = changes.prefix(listedChanges).map(\.description).joined(separator: "; ")
        return changes.count > listedChanges ? "\(listed); … (\(changes.count) in all)" : listed
    }
}
