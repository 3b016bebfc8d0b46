import HAPEvents
import WireParsing

// The words reports use for the values the events carry: one place, so that text, JSON and
// HTML say the same thing.

extension ConnectionCloseReason {
    var wording: String {
        switch self {
        case .closed: "closed (FIN)"
        case .reset: "reset (RST)"
        case .idleTimeout: "idle timeout"
        case .evicted: "dropped at the connection limit"
        case .captureEnded: "open at the end of the capture"
        case .superseded: "superseded by a new connection on the same ports"
        }
    }
}

extension SessionStartEvent.UndecryptableReason {
    var wording: String {
        switch self {
        case .startedBeforeCapture:
            "the session was encrypted before the capture started, so its pair-verify (and keys) are not in the capture"
        case .noKeyLogEntry(let key):
            "no key-log entry for this pair-verify (controller ephemeral key \(key.map { Hex.encode($0.prefix(8)) + "…" } ?? "(not captured)"))"
        case .noPairSetupSessionKey:
            "no PAIR_SETUP_SESSION_KEY for this pair-setup's SRP key A"
        case .onlyOneDirection(let direction):
            "the key log holds only the \(direction) key"
        }
    }
}

extension SessionStartEvent {
    /// Why (a direction of) the session stays encrypted, in words; nil when both are decrypted.
    var undecryptableWording: String? { undecryptableBecause?.wording }
}
