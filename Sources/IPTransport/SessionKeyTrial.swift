import HAPCore
import HAPCrypto
import HAPEvents
import Packets
import TCPReassembly

/// The first bytes of a connection not judged yet, kept to be replayed once it is.
struct HeldChunk {
    let direction: TCPDirection
    let bytes: [UInt8]
    let packet: PacketInfo
}

/// A connection already open when the capture started that nothing else marks as HAP: the key
/// log's sessions are tried on its frames, and it is HAP when one of their keys verifies one.
/// Which key did — the controller's write key or the accessory's read key — says which side is
/// the controller.
///
/// A chance chain of plausible frame lengths in other binary traffic costs a full counter
/// search per key, so a guess must show three whole frames (fewer only when the connection
/// ends) before keys are tried on it.
final class SessionKeyTrial {
    enum Verdict {
        case undecided
        /// The connection is HAP; `session` is the key-log session that opened it.
        case hap(controllerSends: TCPDirection, session: [UInt8])
        case notHAP
    }

    /// Bytes held for replay at most; a connection that has not shown a frame by then is not HAP.
    static let maximumHeldBytes = 64 * 1024

    private let sessions: [KeyLogSession]
    /// For each key the joiners try, its session and the HAP direction it seals.
    private let keyOwners: [(session: Int, direction: HAPDirection)]
    private var joiners: [TCPDirection: HAPFrameJoiner] = [:]
    private var failed: Set<TCPDirection> = []
    private(set) var held: [HeldChunk] = []
    private var heldByteCount = 0
    private let counterLimit: UInt64
    private let checkBudget: UInt64

    init(sessions: [KeyLogSession], counterLimit: Int, checkBudget: Int) {
        self.sessions = sessions
        self.counterLimit = UInt64(max(counterLimit, 1))
        self.checkBudget = UInt64(max(checkBudget, 1))
        keyOwners = sessions.indices.flatMap { index in
            HAPDirection.allCases.filter { sessions[index].keys[$0] != nil }.map { (index, $0) }
        }
    }

    func receive(_ chunk: HeldChunk) -> Verdict {
        held.append(chunk)
        heldByteCount += chunk.bytes.count
        guard !failed.contains(chunk.direction) else { return heldByteCount > Self.maximumHeldBytes ? .notHAP : .undecided }
        var joiner = joiners[chunk.direction] ?? HAPFrameJoiner(
            keys: keyOwners.map { sessions[$0.session].keys[$0.direction]! }, counterLimit: counterLimit,
            checkBudget: checkBudget, framesToJudge: 3, trustsFirstByte: false)
        let progress = chunk.bytes.withUnsafeBytes { joiner.append($0) }
        joiners[chunk.direction] = joiner
        return verdict(progress, chunk.direction)
    }

    /// The connection ended (or a gap cut it): what is held decides.
    func finish() -> Verdict {
        for (direction, var joiner) in joiners where !failed.contains(direction) {
            if case .hap(let sends, let session) = verdict(joiner.finish(), direction) { return .hap(controllerSends: sends, session: session) }
        }
        return .notHAP
    }

    /// Whether a direction's search ended on the `frame.join-checks` budget rather than on an
    /// answer: the connection was not judged, only given up on.
    private(set) var reachedCheckBudget = false

    private func verdict(_ progress: HAPFrameJoiner.Progress, _ direction: TCPDirection) -> Verdict {
        switch progress {
        case .needsMoreBytes:
            return heldByteCount > Self.maximumHeldBytes ? .notHAP : .undecided
        case .joined(let join):
            let owner = keyOwners[join.keyIndex]
            return .hap(controllerSends: owner.direction == .controllerToAccessory ? direction : direction.reversed,
                        session: sessions[owner.session].id)
        case .failed(let failure):
            reachedCheckBudget = reachedCheckBudget || failure.reachedCheckBudget
            failed.insert(direction)
            return failed.count == 2 || heldByteCount > Self.maximumHeldBytes ? .notHAP : .undecided
        }
    }
}
