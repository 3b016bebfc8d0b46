import HAPEvents
import Packets
import TLV8

/// The controllers an accessory has stored, as far as the capture tells: pair setup adds an
/// admin (PROTOCOL §1.6), Add and Remove Pairing change the list, and a List Pairings response
/// states it outright.
struct PairingRoster {
    /// A stored pairing and how the audit learned its permissions, for evidence.
    struct Entry {
        let isAdmin: Bool
        let source: String
        /// Whether a pair setup in the capture created it.
        var fromPairSetup = false
    }

    /// The removal of the last admin pairing, which took every other pairing with it (HAP; ADK
    /// `HAPPairingPairings.c`).
    struct Emptying {
        let packet: PacketInfo
        /// The pairings removed along with it, never by name: their controllers were not told.
        let wiped: [String]
    }

    /// Pairings with a known pairing ID, by the ID lower-cased (HAP compares IDs without case).
    private(set) var controllers: [String: Entry] = [:]
    /// Pairings whose ID the capture did not reveal (a pair setup without the key to open M5).
    private var anonymousPairings = 0
    /// False once a removal could not be matched to a known pairing while anonymous ones exist:
    /// from then on, whether the accessory is paired is unknown until a List Pairings response.
    private var isExact = true
    /// When the accessory last went from unpaired to paired.
    private(set) var pairedSince: PacketInfo?
    /// Pairing IDs (lower-cased) removed by a Remove Pairing that named them.
    private(set) var removedByName: Set<String> = []
    /// The last removal that left the accessory without pairings, until it is paired again.
    private(set) var emptied: Emptying?

    /// Whether the accessory has any pairing; nil when the capture cannot tell.
    var isPaired: Bool? {
        isExact ? (!controllers.isEmpty || anonymousPairings > 0) : nil
    }

    var count: Int { controllers.count + anonymousPairings }

    /// The stored entry of a controller, if the capture showed it.
    func entry(_ pairingID: String) -> Entry? {
        controllers[pairingID.lowercased()]
    }

    mutating func pairSetupCompleted(controllerID: String?, connectionID: Int, at packet: PacketInfo) {
        let wasPaired = isPaired
        if let controllerID {
            controllers[controllerID.lowercased()] = Entry(
                isAdmin: true, source: "created by pair setup on #\(connectionID) (packet #\(packet.number)), which makes an admin",
                fromPairSetup: true)
        } else {
            anonymousPairings += 1
        }
        if wasPaired != true { pairedSince = packet }
        emptied = nil
    }

    mutating func added(_ pairingID: String, permissions: PairingPermissions, connectionID: Int, at packet: PacketInfo) {
        let wasPaired = isPaired
        controllers[pairingID.lowercased()] = Entry(
            isAdmin: permissions.contains(.admin),
            source: "added with permissions \(permissions) on #\(connectionID) (packet #\(packet.number))")
        if wasPaired != true { pairedSince = packet }
        emptied = nil
    }

    mutating func removed(_ pairingID: String, at packet: PacketInfo) {
        removedByName.insert(pairingID.lowercased())
        guard let entry = controllers.removeValue(forKey: pairingID.lowercased()) else {
            // Not a pairing the capture named: one of the anonymous ones, or none at all.
            if anonymousPairings > 0 { isExact = false }
            return
        }
        // HAP: removing the last admin removes every pairing (ADK).
        if entry.isAdmin, anonymousPairings == 0, !controllers.values.contains(where: \.isAdmin) {
            emptied = Emptying(packet: packet, wiped: controllers.keys.sorted())
            controllers.removeAll()
        }
        if isPaired == false { pairedSince = nil }
    }

    mutating func listed(_ pairings: [PairingsMessage.PairingEntry], connectionID: Int, at packet: PacketInfo) {
        let wasPaired = isPaired
        controllers.removeAll()
        for pairing in pairings {
            guard let id = pairing.identifier?.string, let permissions = pairing.permissions else { continue }
            controllers[id.lowercased()] = Entry(
                isAdmin: permissions.contains(.admin),
                source: "listed with permissions \(permissions) on #\(connectionID) (packet #\(packet.number))")
        }
        anonymousPairings = 0
        isExact = true
        if isPaired == false {
            pairedSince = nil
        } else {
            if wasPaired != true { pairedSince = packet }
            emptied = nil
        }
    }
}
