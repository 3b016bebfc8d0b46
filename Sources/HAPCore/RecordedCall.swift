import HAPEvents
import Packets
import WireParsing

/// One call a transport made on its `AnalysisContext` that shapes what the run reports, kept
/// instead of applied when the transport runs on a shard of a run of several jobs (`--jobs`):
/// the merger replays every context's calls, in the order one job would have made them, into
/// the one real context, so that its `CaptureOrderBuffer`, its first-hit-of-a-limit rule and
/// its consumers see, call for call, one job's stream.
package enum RecordedCall: Sendable {
    case emit(HAPEvent)
    case hold(CaptureOrderBuffer.Hold, from: PacketInfo)
    case release(CaptureOrderBuffer.Hold)
    case limitReached(LimitName, String, PacketInfo?)
    case addLimitHits(LimitName, Int)
    /// A read or write of what one connection teaches another, checked by the merger's mirror.
    case fact(FactAccess)
    /// In the reader's log only: the calls of the next batch `shard` returns belong here.
    case handoff(shard: Int)
}

/// A read or write of a fact shared across connections, as a shard's context saw it: a read
/// with the answer the shard's own facts gave, a write with what was written. The merger's
/// `FactMirror` replays the writes in one job's order and checks each read against them.
package enum FactAccess: Sendable, Equatable {
    /// A pair-setup M5 (`controller`) or M6 taught a long-term public key (pairing id
    /// lower-cased).
    case learnedLTPK(LTPKOwner, pairingID: String, key: [UInt8])
    /// A pair-verify looked the key up where the key log has none: the answer from the shard's
    /// own pair-setups.
    case readLTPK(LTPKOwner, pairingID: String, answer: [UInt8]?)
    /// An accessory database was looked up under `key` (and the accessory's address, for a
    /// lookup that falls back to it).
    case consultedDatabase(key: String, accessory: PeerAddress?)
    case storedDatabase(key: String, accessory: PeerAddress)
    /// The key log's candidate sessions for a connection (`KeyLogSessions.candidateIDs`).
    case readKeyLogCandidates(PeerAddress, PeerAddress, answer: [[UInt8]])
    case claimedKeyLogSession([UInt8])

    package enum LTPKOwner: Sendable, Equatable {
        case accessory
        case controller
    }
}

/// Where a context of a sharded run keeps its calls instead of applying them. `recorder` is the
/// context's place in the run: 0 the reader, 1… the shards (the fact mirror's owners).
package final class CallRecorder {
    package let recorder: Int
    package private(set) var calls: [RecordedCall] = []

    package init(recorder: Int) {
        self.recorder = recorder
    }

    package func record(_ call: RecordedCall) {
        calls.append(call)
    }

    /// The calls recorded since the last take, in order.
    package func take() -> [RecordedCall] {
        defer { calls.removeAll(keepingCapacity: true) }
        return calls
    }
}
