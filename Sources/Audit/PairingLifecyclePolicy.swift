import DNS
import HAPEvents
import HTTP1
import Packets
import TLV8

/// Pairings lost: `pairing-removed-after-setup` (a controller that rejected the database),
/// `verify-after-removal` (a controller whose pairing went with the last admin's) and
/// `sf-not-restored` (an accessory that still says it is paired once it holds no pairing).
struct PairingLifecyclePolicy: AuditPolicy {
    private let statusFlagGracePeriod: Double
    private let maximumRememberedValues: Int
    /// What each verified connection's controller asked for, in order, and where its last
    /// `/accessories` answer was.
    private var sessions: [Int: SessionRequests] = [:]
    /// Per accessory, what it advertised after its pairings were emptied.
    private var restorations: [String: Restoration] = [:]

    private struct SessionRequests {
        var targets: [String] = []
        var lastDatabase: PacketInfo?
    }

    private struct Restoration {
        /// The removal that emptied the pairings.
        let emptiedAt: PacketInfo
        let instance: String
        var settledAdvertisements = 0
        var lastSettled: PacketInfo?
        var restored = false
    }

    init(thresholds: AuditThresholds) {
        statusFlagGracePeriod = thresholds.statusFlagRestoreGracePeriod
        maximumRememberedValues = thresholds.maximumRememberedValues
    }

    mutating func observe(_ event: HAPEvent, in context: AuditContext, findings: inout FindingLedger) {
        switch event.kind {
        case .httpMessage(let http):
            guard http.encrypted, http.direction == .controllerToAccessory, let line = http.message.requestLine,
                  sessions[http.connection.id] != nil || sessions.count < maximumRememberedValues else { return }
            sessions[http.connection.id, default: SessionRequests()].targets.append("\(line.method) \(HAPRequestTarget(line.target).path)")
        case .accessoryDatabase(let database) where database.source == .response:
            sessions[database.connection.id]?.lastDatabase = event.packet
        case .pairingExchange(let exchange):
            guard let packet = event.packet else { return }
            switch exchange.procedure {
            case .pairings: checkRemovalAfterSetup(exchange, at: packet, in: context, findings: &findings)
            case .pairVerify: checkVerifyAfterRemoval(exchange, at: packet, in: context, findings: &findings)
            case .pairSetup: break
            }
        case .advertisement(let advertisement):
            guard let packet = event.packet, advertisement.isResponse, !advertisement.service.isGoodbye,
                  let txt = advertisement.service.hap, let deviceID = txt.deviceID else { return }
            observe(txt, instance: advertisement.service.name.displayText, accessory: AuditContext.accessoryKey(deviceID: deviceID),
                    at: packet, in: context)
        case .connectionClosed(let summary):
            sessions.removeValue(forKey: summary.connection.id)
        case .inputOpened, .inputEnded:
            // Each capture is judged on what it shows (AuditContext forgets its pairings too).
            judgeRestorations(findings: &findings)
        default:
            break
        }
    }

    // MARK: A controller that rejected the database

    /// HAP: Remove Pairing of the session's own controller, accepted, when the session asked for
    /// nothing but `/accessories` before and the pairing came from a pair setup in the capture.
    private func checkRemovalAfterSetup(
        _ exchange: PairingExchangeEvent, at packet: PacketInfo, in context: AuditContext, findings: inout FindingLedger
    ) {
        guard exchange.succeeded, case .removePairingM1(let remove)? = exchange.pairingsRequest,
              let removed = remove.identifier?.string, let controller = exchange.sessionControllerID,
              removed.lowercased() == controller.lowercased(),
              let accessory = context.accessoryKey(of: exchange.connection.id),
              context.roster(of: accessory).entry(controller)?.fromPairSetup == true,
              let session = sessions[exchange.connection.id] else { return }
        // The last request is this /pairings one.
        let before = session.targets.dropLast()
        guard !before.isEmpty, before.allSatisfy({ $0 == "GET /accessories" }), let database = session.lastDatabase else { return }
        let rules = findings.rules(withEvidenceAt: database)
        let explained = rules.isEmpty
            ? "hapscope found nothing against that database, so its rules do not explain the rejection"
            : "hapscope's findings against that database: " + rules.map(\.id).joined(separator: ", ")
        findings.record(.pairingRemovedAfterSetup, .connection(exchange.connection), accessory: accessory, Evidence(
            packet: packet, connection: exchange.connection,
            detail: "controller \(controller), paired by a pair setup in this capture, removed its own pairing (accepted) "
                + "on its session after asking for nothing but \(before.count) GET /accessories, the last answered in packet "
                + "#\(database.number): it rejected the database; \(explained)"))
    }

    // MARK: A pairing removed with the last admin

    private func checkVerifyAfterRemoval(
        _ exchange: PairingExchangeEvent, at packet: PacketInfo, in context: AuditContext, findings: inout FindingLedger
    ) {
        guard case .failed(let state, let error, _) = exchange.outcome, state == .m2 || state == .m4,
              let accessory = context.accessoryKey(of: exchange.connection.id) else { return }
        let roster = context.roster(of: accessory)
        guard let emptied = roster.emptied, !emptied.wiped.isEmpty else { return }
        let who: String
        if let controller = exchange.controllerPairingID ?? exchange.sessionControllerID {
            let id = controller.lowercased()
            guard emptied.wiped.contains(id), !roster.removedByName.contains(id) else { return }
            who = "controller \(controller), whose pairing was never removed by name but went with the last admin's"
        } else {
            // Failed at M2, before the controller named itself: while no pairing is stored, only a
            // controller that was paired tries.
            guard roster.isPaired == false else { return }
            who = "a controller that did not name itself (the accessory, holding no pairing, refused at \(state)), one of "
                + "the \(emptied.wiped.count) pairing(s) removed with the last admin's"
        }
        let refusal = error.map { " Error=\($0)" } ?? ""
        findings.record(.verifyAfterRemoval, .connection(exchange.connection), accessory: accessory, Evidence(
            packet: packet, connection: exchange.connection,
            detail: "pair verify failed at \(state)\(refusal) for \(who): the last admin pairing was removed in packet "
                + "#\(emptied.packet.number), and with it every pairing, so this controller lost the accessory without "
                + "being told"))
    }

    // MARK: sf after the pairings are gone

    private mutating func observe(_ txt: HAPServiceTXT, instance: String, accessory: String, at packet: PacketInfo, in context: AuditContext) {
        guard let emptied = context.roster(of: accessory).emptied, context.roster(of: accessory).isPaired == false,
              packet.timestamp - emptied.packet.timestamp > statusFlagGracePeriod else { return }
        if restorations[accessory]?.emptiedAt.number != emptied.packet.number {
            guard restorations[accessory] != nil || restorations.count < maximumRememberedValues else { return }
            restorations[accessory] = Restoration(emptiedAt: emptied.packet, instance: instance)
        }
        restorations[accessory]?.settledAdvertisements += 1
        restorations[accessory]?.lastSettled = packet
        // HAP-python's responder answers with the old record (sf=0) next to the new one for a while:
        // only an accessory that never says sf=1 again is held to it.
        if txt.statusFlags?.contains(.notPaired) == true { restorations[accessory]?.restored = true }
    }

    private mutating func judgeRestorations(findings: inout FindingLedger) {
        for (_, restoration) in restorations.sorted(by: { $0.key < $1.key }) where !restoration.restored {
            guard let last = restoration.lastSettled else { continue }
            findings.record(.statusFlagNotRestored, .accessory(restoration.instance), Evidence(
                packet: last,
                detail: "the last admin pairing was removed in packet #\(restoration.emptiedAt.number), and with it every "
                    + "pairing; none of the \(restoration.settledAdvertisements) advertisement(s) since (up to this one) "
                    + "has sf bit 0 set (not paired)"))
        }
        restorations.removeAll()
    }
}
