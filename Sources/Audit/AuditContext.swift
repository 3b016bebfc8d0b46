import DNS
import HAPEvents
import HAPJSON
import Packets

/// What every policy may consult about the capture so far: the open connections, and what each
/// accessory is known to have stored, to advertise and to serve.
///
/// The auditor applies each event here only after every policy has judged it, so a policy sees
/// the state the event arrived in: a pair setup that completes is judged against the pairings
/// that existed before it.
struct AuditContext {
    struct Connection {
        let info: ConnectionInfo
        /// The accessory's device ID, once discovery or a decrypted pairing message named it.
        var deviceID: String?
        /// How the connection became encrypted, once it did.
        var session: SessionStartEvent.Trigger?
    }

    /// An accessory's latest `_hap._tcp` TXT record from an mDNS response.
    struct Advertisement {
        let txt: HAPServiceTXT
        let packet: PacketInfo
    }

    private(set) var connections: [Int: Connection] = [:]
    private var rosters: [String: PairingRoster] = [:]
    private var advertisements: [String: Advertisement] = [:]
    private var databases: [String: AccessoryDatabase] = [:]
    /// Accessories remembered per kind of state: mDNS can name any number of device IDs.
    private let maximumAccessories: Int

    init(maximumAccessories: Int) {
        self.maximumAccessories = maximumAccessories
    }

    /// The name accessory-wide state is kept under: the device ID in upper case (as HAP
    /// advertises it), or the accessory's endpoint while the device ID is unknown.
    func accessoryKey(of connectionID: Int) -> String? {
        guard let connection = connections[connectionID] else { return nil }
        return connection.deviceID.map { $0.uppercased() } ?? connection.info.accessory.description
    }

    static func accessoryKey(deviceID: String) -> String { deviceID.uppercased() }

    func roster(of accessory: String) -> PairingRoster { rosters[accessory] ?? PairingRoster() }

    func advertisement(of accessory: String) -> Advertisement? { advertisements[accessory] }

    func database(of accessory: String) -> AccessoryDatabase? { databases[accessory] }

    mutating func apply(_ event: HAPEvent) {
        switch event.kind {
        case .inputOpened:
            // Each capture of a run is judged on what it shows: between two recordings pairings may
            // have been removed and the accessory may advertise and serve anything. Only the rules
            // across captures compare one with the previous (`CaptureHistoryPolicy`).
            rosters.removeAll()
            advertisements.removeAll()
            databases.removeAll()
        case .connectionOpened(let opened):
            connections[opened.connection.id] = Connection(
                info: opened.connection, deviceID: opened.deviceID)
        case .sessionStarted(let started):
            connections[started.connection.id]?.session = started.trigger
        case .pairingExchange(let exchange):
            learnDeviceID(exchange.accessoryPairingID, on: exchange.connection.id)
            if let packet = event.packet { updateRoster(exchange, at: packet) }
        case .advertisement(let advertisement):
            guard let packet = event.packet, advertisement.isResponse, !advertisement.service.isGoodbye,
                  let txt = advertisement.service.hap, let deviceID = txt.deviceID else { return }
            let accessory = Self.accessoryKey(deviceID: deviceID)
            guard advertisements[accessory] != nil || advertisements.count < maximumAccessories else { return }
            advertisements[accessory] = Advertisement(txt: txt, packet: packet)
        case .accessoryDatabase(let database):
            learnDeviceID(database.deviceID, on: database.connection.id)
            if let accessory = accessoryKey(of: database.connection.id), let new = database.database,
               databases[accessory] != nil || databases.count < maximumAccessories {
                databases[accessory] = new
            }
        case .characteristic(let activity):
            learnDeviceID(activity.deviceID, on: activity.connection.id)
        case .connectionClosed(let summary):
            connections.removeValue(forKey: summary.connection.id)
        default:
            break
        }
    }

    private mutating func learnDeviceID(_ deviceID: String?, on connectionID: Int) {
        guard let deviceID, connections[connectionID]?.deviceID == nil else { return }
        connections[connectionID]?.deviceID = deviceID
    }

    private mutating func updateRoster(_ exchange: PairingExchangeEvent, at packet: PacketInfo) {
        guard exchange.succeeded, let accessory = accessoryKey(of: exchange.connection.id),
              rosters[accessory] != nil || rosters.count < maximumAccessories else { return }
        let connectionID = exchange.connection.id
        switch exchange.procedure {
        case .pairSetup:
            // A transient setup ends at M4 and stores nothing (PROTOCOL §2.5).
            guard !exchange.isTransientSetup else { return }
            rosters[accessory, default: PairingRoster()].pairSetupCompleted(
                controllerID: exchange.controllerPairingID, connectionID: connectionID, at: packet)
        case .pairings:
            switch (exchange.pairingsRequest, exchange.pairingsResponse) {
            case (.addPairingM1(let add)?, _):
                guard let id = add.identifier?.string, let permissions = add.permissions else { return }
                rosters[accessory, default: PairingRoster()].added(id, permissions: permissions, connectionID: connectionID, at: packet)
            case (.removePairingM1(let remove)?, _):
                guard let id = remove.identifier?.string else { return }
                rosters[accessory, default: PairingRoster()].removed(id, at: packet)
            case (_, .listPairingsM2(let list)?):
                rosters[accessory, default: PairingRoster()].listed(list.pairings, connectionID: connectionID, at: packet)
            default:
                break
            }
        case .pairVerify:
            break
        }
    }
}

