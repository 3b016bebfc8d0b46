import DNS
import HAPEvents
import HAPJSON
import Packets
import TLV8
import WireParsing

/// Bonjour and HAP-BLE advertisements, and what they promise about pairing and the database:
/// `sf-unpaired-while-paired` (both),
/// `srv-without-address`, `ff-mismatch`, `config-number-unchanged` (both), `txt-malformed`,
/// `setup-hash-mismatch` (both) and `gsn-not-bumped` (HAP-BLE).
///
/// Advertisement findings are kept per service instance (`hapscope Bridge 4D5E6F._hap._tcp.local`),
/// so that a record with a malformed `id` still joins its instance's finding.
struct DiscoveryPolicy: AuditPolicy {
    private let statusFlagGracePeriod: Double
    private let maximumRememberedValues: Int
    /// The pair-setup method each connection's M1 asked for, and where.
    private var setupMethods: [Int: (method: PairingMethod, packet: PacketInfo)] = [:]
    /// `c#` as advertised and as it stood at each accessory's last `/accessories` fetch.
    private var configurationNumbers: [String: ConfigurationNumberHistory] = [:]

    private struct ConfigurationNumberHistory {
        var latest: UInt64?
        var atLastFetch: UInt64?
        /// Whether an advertisement since the last fetch carried another `c#`.
        var changedSinceFetch = false
        var lastFetch: PacketInfo?
    }

    init(thresholds: AuditThresholds) {
        statusFlagGracePeriod = thresholds.statusFlagGracePeriod
        maximumRememberedValues = thresholds.maximumRememberedValues
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .inputOpened:
            // config-number-unchanged judges one capture; across captures it is config-number-not-bumped.
            configurationNumbers.removeAll()
        case .advertisement(let advertisement):
            guard let packet = event.packet, advertisement.isResponse, !advertisement.service.isGoodbye,
                  let txt = advertisement.service.hap else { return }
            observe(advertisement, txt: txt, at: packet, in: context, findings: &findings)
        case .bleAdvertisement(let advertisement):
            // HAP-BLE: status flags bit 0, as `sf` over Bonjour (HomeKitADK HAPBLEAccessoryServer+Advertising.c).
            guard let packet = event.packet, let regular = advertisement.regular else { return }
            if let check = advertisement.setupHash, !check.matches {
                findings.record(.setupHashMismatch, .accessory(regular.deviceIDText), Evidence(
                    packet: packet,
                    detail: "the advertisement from \(advertisement.advertiser) carries setup hash \(Hex.encode(check.advertised)) for "
                        + "id=\(check.deviceID), but SHA-512(\"\(check.setupID)\" ‖ \"\(check.deviceID)\") gives \(Hex.encode(check.expected))"))
            }
            checkStatusFlags(
                HAPStatusFlags(rawValue: UInt64(regular.statusFlags)), deviceID: regular.deviceIDText, advertised: "status flags",
                scope: .accessory(regular.deviceIDText), at: packet, in: context, findings: &findings)
        case .characteristic(let activity):
            guard let change = activity.unannouncedChange else { return }
            checkGlobalStateNumber(activity, change, at: event.packet, findings: &findings)
        case .pairingMessage(let message):
            guard case .pairSetup(let content)? = message.content, let packet = event.packet else { return }
            switch content {
            case .m1(let m1):
                setupMethods[message.connection.id] = m1.method.map { ($0, packet) }
            case .m2:
                checkFeatureFlags(on: message.connection, at: packet, in: context, findings: &findings)
            default:
                break
            }
        case .accessoryDatabase(let database) where database.source == .response:
            guard let packet = event.packet else { return }
            checkConfigurationNumber(database, at: packet, in: context, findings: &findings)
        case .connectionClosed(let summary):
            setupMethods.removeValue(forKey: summary.connection.id)
            if let change = summary.unannouncedDatabaseChange { checkConfigurationNumber(change, on: summary.connection, findings: &findings) }
        default:
            break
        }
    }

    // MARK: Advertisements

    private mutating func observe(
        _ advertisement: AdvertisementEvent, txt: HAPServiceTXT, at packet: PacketInfo, in context: AuditContext,
        findings: inout FindingLedger
    ) {
        let service = advertisement.service
        let instance = FindingScope.accessory(service.name.displayText)
        for diagnostic in advertisement.messageDiagnostics {
            guard case .targetWithoutAddress = diagnostic.kind else { continue }
            findings.record(.serviceWithoutAddress, instance, Evidence(
                packet: packet, detail: "mDNS response from \(advertisement.sender), byte \(diagnostic.offset): \(diagnostic.kind)"))
        }

        let problems = txt.diagnostics.filter(Self.isMalformation).map(\.description)
            + (service.txt?.diagnostics ?? []).filter(Self.isMalformation).map(\.description)
        if !problems.isEmpty {
            findings.record(.txtMalformed, instance, Evidence(
                packet: packet, detail: "TXT record (offsets in the mDNS message): " + problems.joined(separator: "; ")))
        }

        if let deviceID = txt.deviceID {
            checkSetupHash(advertisement, service: service, scope: instance, at: packet, findings: &findings)
            let accessory = AuditContext.accessoryKey(deviceID: deviceID)
            if let flags = txt.statusFlags {
                checkStatusFlags(flags, deviceID: deviceID, advertised: "sf", scope: instance, at: packet, in: context, findings: &findings)
            }
            if let number = txt.configurationNumber,
               configurationNumbers[accessory] != nil || configurationNumbers.count < maximumRememberedValues {
                var history = configurationNumbers[accessory, default: ConfigurationNumberHistory()]
                if let atLastFetch = history.atLastFetch, number != atLastFetch { history.changedSinceFetch = true }
                history.latest = number
                configurationNumbers[accessory] = history
            }
        }
    }

    /// A key HAP does not define is allowed (DNS-SD ignores unknown keys); anything else is a
    /// malformation.
    private static func isMalformation(_ diagnostic: HAPDiagnostic) -> Bool {
        if case .unknownKey = diagnostic.kind { return false }
        return true
    }

    /// Broken DNS-SD key/value syntax; a key longer than nine characters is only discouraged.
    private static func isMalformation(_ diagnostic: ServiceTXTDiagnostic) -> Bool {
        if case .keyLongerThanNineCharacters = diagnostic.kind { return false }
        return true
    }

    /// The analysis judged the advertised `sh` against the setup ID the user gave.
    private func checkSetupHash(
        _ advertisement: AdvertisementEvent, service: ServiceAdvertisement, scope: FindingScope, at packet: PacketInfo,
        findings: inout FindingLedger
    ) {
        guard let check = advertisement.setupHash, !check.matches else { return }
        let sent = service.txt?["sh"]?.valueText ?? Hex.encode(check.advertised)
        findings.record(.setupHashMismatch, scope, Evidence(
            packet: packet,
            detail: "sh=\(sent) for id=\(check.deviceID), but SHA-512(\"\(check.setupID)\" ‖ \"\(check.deviceID)\") gives sh=\(Base64.encode(check.expected))"))
    }

    /// Status flags that say "not paired" (`sf` over Bonjour, the status flags byte of a HAP-BLE
    /// advertisement) while the accessory holds pairings.
    private func checkStatusFlags(
        _ flags: HAPStatusFlags, deviceID: String, advertised: String, scope: FindingScope, at packet: PacketInfo,
        in context: AuditContext, findings: inout FindingLedger
    ) {
        guard flags.contains(.notPaired) else { return }
        let roster = context.roster(of: AuditContext.accessoryKey(deviceID: deviceID))
        guard roster.isPaired == true, let since = roster.pairedSince,
              packet.timestamp - since.timestamp > statusFlagGracePeriod else { return }
        findings.record(.statusFlagUnpairedWhilePaired, scope, Evidence(
            packet: packet,
            detail: "advertised \(advertised)=\(flags.rawValue) (bit 0 set: not paired) for id=\(deviceID) while "
                + "\(roster.count) pairing(s) were stored (paired since packet #\(since.number))"))
    }

    /// The transport found a value changed between two LE connections while the GSN stood still.
    private func checkGlobalStateNumber(
        _ activity: CharacteristicActivity, _ change: UnannouncedValueChange, at packet: PacketInfo?, findings: inout FindingLedger
    ) {
        let now = activity.value.map { " \($0.value)" } ?? ""
        let then = change.earlierValue.map { " \($0.value)" } ?? ""
        findings.record(.globalStateNumberNotBumped, .connection(activity.connection), accessory: activity.deviceID, Evidence(
            packet: packet, connection: activity.connection,
            detail: "the first read of \(activity.evidenceSubject) on connection \(activity.connection.id) gave\(now), where "
                + "connection \(change.earlierConnection.id) had seen\(then), yet the accessory advertised GSN "
                + "\(change.globalStateNumber) before connection \(change.earlierConnection.id) and still in packet "
                + "#\(change.advertisementPacket.number): the characteristic notifies in the disconnected state, so its change "
                + "had to increment the GSN (a disconnected event)"))
    }

    // MARK: Pair setup

    private func checkFeatureFlags(on connection: ConnectionInfo, at packet: PacketInfo, in context: AuditContext, findings: inout FindingLedger) {
        guard let (method, m1Packet) = setupMethods[connection.id], let accessory = context.accessoryKey(of: connection.id),
              let advertisement = context.advertisement(of: accessory), let flags = advertisement.txt.featureFlags
        else { return }
        let advertisesCoprocessor = flags.contains(.appleAuthenticationCoprocessor)
        let mismatch: String
        let severity: Severity?
        if advertisesCoprocessor, method == .pairSetup {
            mismatch = "uses \(method), without MFi authentication, although the accessory advertised ff=\(flags.rawValue) "
                + "(bit 0: Apple Authentication Coprocessor) in packet #\(advertisement.packet.number): a downgrade, the "
                + "accessory's hardware authentication is skipped; the accessory answered with a normal M2"
            severity = nil
        } else if !advertisesCoprocessor, method == .pairSetupWithAuth {
            // Nothing is skipped: homekit_python numbers PairSetup 1 and sends it to every accessory;
            // HAP-python ignores Method, ADK answers M2 and fails M4 (captures/README.md).
            mismatch = "asks for \(method), MFi authentication, although the accessory advertised ff=\(flags.rawValue) "
                + "(bit 0 clear: no Apple Authentication Coprocessor) in packet #\(advertisement.packet.number): no "
                + "authentication is skipped, but an accessory that reads Method cannot complete it (ADK fails M4 with "
                + "500); this one answered with a normal M2"
            severity = .info
        } else {
            return
        }
        findings.record(.featureFlagMismatch, .connection(connection), severity: severity, accessory: accessory, Evidence(
            packet: packet, connection: connection, detail: "pair-setup M1 (packet #\(m1Packet.number)) \(mismatch)"))
    }

    // MARK: The database

    private mutating func checkConfigurationNumber(
        _ event: AccessoryDatabaseEvent, at packet: PacketInfo, in context: AuditContext, findings: inout FindingLedger
    ) {
        guard event.database != nil, let accessory = context.accessoryKey(of: event.connection.id),
              configurationNumbers[accessory] != nil || configurationNumbers.count < maximumRememberedValues else { return }
        var history = configurationNumbers[accessory, default: ConfigurationNumberHistory()]
        defer {
            history.atLastFetch = history.latest
            history.changedSinceFetch = false
            history.lastFetch = packet
            configurationNumbers[accessory] = history
        }
        // Values change all the time; only the structure is covered by c# (PROTOCOL §7).
        let changes = event.diff?.changes.filter(\.isStructural) ?? []
        guard !changes.isEmpty, let number = history.atLastFetch, !history.changedSinceFetch,
              let previous = history.lastFetch else { return }
        let listed = changes.prefix(3).map(\.summary).joined(separator: ", ") + (changes.count > 3 ? ", …" : "")
        findings.record(.configurationNumberUnchanged, .accessory(accessory), Evidence(
            packet: packet, connection: event.connection,
            detail: "this /accessories response differs in structure from the one in packet #\(previous.number) "
                + "(\(changes.count) change(s): \(listed)), yet every advertisement in between kept c#=\(number)"))
    }

    /// HAP-BLE: the transport found the GATT database read on this LE connection changed from
    /// what earlier ones read, under the same advertised configuration number.
    private func checkConfigurationNumber(_ change: UnannouncedDatabaseChange, on connection: ConnectionInfo, findings: inout FindingLedger) {
        let listed = change.changes.prefix(3).map(\.summary).joined(separator: ", ") + (change.changes.count > 3 ? ", …" : "")
        findings.record(.configurationNumberUnchanged, .connection(connection), accessory: AuditContext.accessoryKey(deviceID: change.deviceID), Evidence(
            packet: change.packet, connection: connection,
            detail: "the GATT database read on connection \(connection.id) differs from what the earlier connections read "
                + "under the same configuration number (the last of them connection \(change.earlierConnection.id)) "
                + "(\(change.changes.count) change(s): \(listed)), yet the accessory advertised CN \(change.configurationNumber) "
                + "before both, last in packet #\(change.advertisementPacket.number)"))
    }
}

extension AccessoryDatabaseDiff.Change {
    /// Whether the change is to the database's structure rather than to a value.
    var isStructural: Bool {
        if case .characteristicValueChanged = self { return false }
        return true
    }

    /// `accessory aid 12 added`, `characteristic 2.11 removed`.
    var summary: String {
        switch self {
        case .accessoryAdded(let aid): "accessory aid \(aid) added"
        case .accessoryRemoved(let aid): "accessory aid \(aid) removed"
        case .serviceAdded(let aid, let iid, let type): "service \(aid).\(iid) (\(type.displayString)) added"
        case .serviceRemoved(let aid, let iid, let type): "service \(aid).\(iid) (\(type.displayString)) removed"
        case .serviceChanged(let aid, let iid, let fields): "service \(aid).\(iid) changed (\(fields.map(\.field).joined(separator: ", ")))"
        case .characteristicAdded(let id, let type): "characteristic \(id) (\(type.displayString)) added"
        case .characteristicRemoved(let id, let type): "characteristic \(id) (\(type.displayString)) removed"
        case .characteristicMetadataChanged(let id, let fields):
            "characteristic \(id) changed (\(fields.map(\.field).joined(separator: ", ")))"
        case .characteristicValueChanged(let id, _, _): "characteristic \(id) value changed"
        }
    }
}
