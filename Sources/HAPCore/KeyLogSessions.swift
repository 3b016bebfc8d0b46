import HAPCrypto
import HAPEvents
import Packets

/// A session the key log holds keys for, as a candidate for a connection whose pair-verify is
/// not in the capture.
package struct KeyLogSession: Sendable {
    /// The controller's pair-verify public key: the id of the session's key-log lines.
    package let id: [UInt8]
    package let keys: DirectionalSessionKeys
    package let source: KeySource
    /// Where the session ran, when the key log says (`SESSION_ENDPOINTS`).
    package let endpoints: KeyLog.SessionEndpoints?
}

/// The key log's sessions and which of them this run has tied to a connection: a session is
/// tried on a connection joined mid-way only while no pair-verify or other connection has
/// claimed it, and a session named by `SESSION_ENDPOINTS` only on a connection between those
/// endpoints.
package struct KeyLogSessions {
    private let keyLog: KeyLog
    private let ids: [[UInt8]]
    private let endpoints: [[UInt8]: KeyLog.SessionEndpoints]
    private var claimed: Set<[UInt8]> = []
    /// In a sharded run, where each read of the candidates (with its answer) and each claim is
    /// noted (`FactAccess`), for the merger to replay the claims in one job's order.
    private let recorder: CallRecorder?

    /// Keys are derived only when a connection needs them: most captures join no session, and
    /// deriving every session's keys up front would cost a lab capture's run for nothing.
    package init(_ keyLog: KeyLog, recorder: CallRecorder? = nil) {
        self.keyLog = keyLog
        ids = keyLog.sessionIDs
        endpoints = Dictionary(keyLog.sessionEndpoints.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        self.recorder = recorder
    }

    /// The accessory endpoints `SESSION_ENDPOINTS` lines name.
    package var accessoryEndpoints: Set<Endpoint> {
        Set(endpoints.values.compactMap { endpoints in
            if case .ip(let endpoint) = endpoints.accessory { endpoint } else { nil }
        })
    }

    /// The unclaimed sessions that may be the one on the connection between `one` and `other`
    /// (in either role): those `SESSION_ENDPOINTS` names for it, else those it names for nowhere
    /// — a session the key log ties to this very connection is the one, and trying every other
    /// one beside it would multiply the counter search by the key log's length. Only sessions whose keys are there without the pair-verify's public keys: a
    /// shared secret or control keys (an ephemeral secret needs the other side's public key).
    package func candidates(between one: PeerAddress, _ other: PeerAddress) -> [KeyLogSession] {
        let chosen = candidateIDs(between: one, other)
        recorder?.record(.fact(.readKeyLogCandidates(one, other, answer: chosen)))
        return chosen.compactMap { id in
            guard let secrets = SessionKeyResolver.resolve(keyLog: keyLog, controllerKey: id, accessoryKey: nil) else { return nil }
            return KeyLogSession(id: id, keys: secrets.session, source: secrets.source, endpoints: endpoints[id])
        }
    }

    /// The ids of the sessions `candidates(between:_:)` chooses, before their keys are derived:
    /// what decides the answer.
    package func candidateIDs(between one: PeerAddress, _ other: PeerAddress) -> [[UInt8]] {
        let unclaimed = ids.filter { !claimed.contains($0) }
        let named = unclaimed.filter { id in
            guard let endpoints = endpoints[id] else { return false }
            let logged: Set<PeerAddress> = [endpoints.controller, endpoints.accessory]
            return logged == [one, other]
        }
        return named.isEmpty ? unclaimed.filter { endpoints[$0] == nil } : named
    }

    /// The session whose key-log lines have `id`, once a pair-verify or a connection used it.
    package mutating func claim(_ id: [UInt8]) {
        recorder?.record(.fact(.claimedKeyLogSession(id)))
        claimed.insert(id)
    }
}
