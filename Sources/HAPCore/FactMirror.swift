import HAPEvents

/// The merger's copy of what connections teach each other in a sharded run (`--jobs`): every
/// part of the run (the reader, each shard) answered its reads from its own writes only; the
/// mirror replays everyone's writes in one job's order and checks each read, so that a read one
/// job would have answered differently is found at the call that made it (`FactConflict`).
///
/// - Long-term keys and the key log's candidate sessions: the answer recorded must be the one
///   the mirror gives.
/// - Accessory databases: a connection keeps the database it found until another is stored
///   anywhere (`AccessoryDatabases.generation`), so not every read is recorded; instead a key or
///   an accessory address that one part stored and another consulted or stored, in either
///   order, is a conflict — the first call that makes it so.
package struct FactMirror {
    private var accessoryLTPKs: [String: [UInt8]] = [:]
    private var controllerLTPKs: [String: [UInt8]] = [:]
    private var sessions: KeyLogSessions
    private var databaseKeys: [String: Touch] = [:]
    private var databaseAccessories: [PeerAddress: Touch] = [:]

    /// Who touched a database key or an accessory address: the first part, whether another did,
    /// whether anyone stored.
    private struct Touch {
        let first: Int
        var byOthers = false
        var stored = false
    }

    package init(keyLog: KeyLog) {
        sessions = KeyLogSessions(keyLog)
    }

    /// Replays `access`, made by part `recorder` (0 the reader, 1… the shards); nil when it
    /// agrees with one job.
    package mutating func replay(_ access: FactAccess, by recorder: Int) -> FactConflict? {
        switch access {
        case .learnedLTPK(.accessory, let id, let key):
            accessoryLTPKs[id] = key
        case .learnedLTPK(.controller, let id, let key):
            controllerLTPKs[id] = key
        case .readLTPK(let owner, let id, let answer):
            let known = owner == .accessory ? accessoryLTPKs[id] : controllerLTPKs[id]
            if known != answer { return .longTermKey(owner, pairingID: id) }
        case .consultedDatabase(let key, let accessory):
            return touch(key: key, accessory: accessory, by: recorder, storing: false)
        case .storedDatabase(let key, let accessory):
            return touch(key: key, accessory: accessory, by: recorder, storing: true)
        case .readKeyLogCandidates(let one, let other, let answer):
            if sessions.candidateIDs(between: one, other) != answer { return .keyLogSessions(one, other) }
        case .claimedKeyLogSession(let id):
            sessions.claim(id)
        }
        return nil
    }

    private mutating func touch(key: String, accessory: PeerAddress?, by recorder: Int, storing: Bool) -> FactConflict? {
        if Self.touch(&databaseKeys[key], by: recorder, storing: storing) { return .database(key: key) }
        if let accessory, Self.touch(&databaseAccessories[accessory], by: recorder, storing: storing) {
            return .databaseAddress(accessory)
        }
        return nil
    }

    /// Notes the touch; whether the thing is now stored by one part and touched by another.
    private static func touch(_ touch: inout Touch?, by recorder: Int, storing: Bool) -> Bool {
        var current = touch ?? Touch(first: recorder)
        if current.first != recorder { current.byOthers = true }
        if storing { current.stored = true }
        touch = current
        return current.byOthers && current.stored
    }
}

/// A fact one part of a sharded run read that one job would have answered otherwise: the run
/// goes on in one job from there (`--jobs`).
package enum FactConflict: Sendable, Equatable, CustomStringConvertible {
    case longTermKey(FactAccess.LTPKOwner, pairingID: String)
    case database(key: String)
    case databaseAddress(PeerAddress)
    case keyLogSessions(PeerAddress, PeerAddress)

    package var description: String {
        switch self {
        case .longTermKey(let owner, let id):
            "the \(owner == .accessory ? "accessory" : "controller") long-term key of \(id) was learned by a connection to another accessory address"
        case .database(let key):
            "the accessory database of \(key) is used by connections to more than one accessory address"
        case .databaseAddress(let address):
            "the accessory databases at \(address) are used by connections on more than one shard"
        case .keyLogSessions(let one, let other):
            "a key-log session between \(one) and \(other) was claimed by a connection to another accessory address"
        }
    }
}
