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

extension ConnectionSummary {
    /// How the connection ended, in its transport's terms: a Bluetooth LE connection is
    /// `disconnected: Remote User Terminated Connection (0x13)`, not closed by a FIN.
    var closingWording: String {
        guard reason == .closed, case .bluetoothLE = connection.transport else { return reason.wording }
        return disconnectionReason.map { "disconnected: \($0)" } ?? "disconnected"
    }
}

extension SessionStartEvent.UndecryptableReason {
    var wording: String {
        switch self {
        case .startedBeforeCapture:
            "the session was encrypted before the capture started, so its pair-verify is not in the capture, and the key log has no session to try on it"
        case .noKeyLogSessionOpens(let tried):
            "the session was encrypted before the capture started, and none of the key log's \(tried == 1 ? "session" : "\(tried) sessions") tried opens its frames"
        case .noKeyLogEntry(let key):
            "no key-log entry for this pair-verify (controller ephemeral key \(key.map { Hex.encode($0.prefix(8)) + "…" } ?? "(not captured)"))"
        case .noPairSetupSessionKey:
            "no PAIR_SETUP_SESSION_KEY for this pair-setup's SRP key A"
        case .onlyOneDirection(let direction):
            "the key log holds only the \(direction) key"
        }
    }
}

extension SessionStartEvent.KeyLogMatch {
    var wording: String {
        switch self {
        case .sessionEndpoints: "the key-log session SESSION_ENDPOINTS names for this connection"
        case .keyTrial: "a key-log session whose key opened the frames"
        }
    }
}

extension SessionJoinEvent {
    /// What joining the direction found, in words.
    var wording: String {
        switch outcome {
        case .joined(let joined):
            var text = "joined at frame counter \(joined.firstCounter)"
            text += joined.skippedBytes == 0 ? ", the first captured byte starts a frame"
                : ", \(EventText.plural(joined.skippedBytes, "byte")) of a frame cut at the start skipped"
            if joined.cutMessageBytes > 0 {
                text += ", \(EventText.plural(joined.cutMessageBytes, "plaintext byte")) of a message cut at the start skipped"
            }
            if !joined.foundMessageStart { text += "; no message starts in what was captured after it" }
            return text
        case .notJoined(let reason):
            return "not joined: " + reason.wording
        }
    }
}

extension SessionJoinEvent.NotJoined {
    var wording: String {
        switch self {
        case .noKeyForDirection:
            "the key log holds no key for this direction of the session"
        case .noFrameBoundary:
            "no offset in the first bytes starts a chain of plausible frame lengths (1 to 1024 bytes)"
        case .noKeyOpens(let keys, let counters, let reachedLimit, let reachedBudget):
            "none of \(keys == 1 ? "the key" : "\(keys) keys") tried verifies a frame (\(EventText.plural(Int(clamping: counters), "counter")) tried"
                + (reachedLimit ? "; a session older than the frame.counter-search limit covers needs a larger one" : "")
                + (reachedBudget ? "; the frame.join-checks limit stopped the search" : "") + ")"
        case .nothingCaptured:
            "the direction carried no bytes in the capture"
        }
    }
}

extension SessionStartEvent {
    /// Why (a direction of) the session stays encrypted, in words; nil when both are decrypted.
    var undecryptableWording: String? { undecryptableBecause?.wording }
}

extension AccessoryDatabaseEvent.Source {
    /// Where a database not read from this capture came from; nil for one that was.
    var wording: String? {
        switch self {
        case .response: nil
        case .earlierInput(let name): "the database read in \(TerminalText.sanitized(name)), earlier in this run"
        case .supplied(let source): "the database given with --accessories: \(TerminalText.sanitized(source))"
        }
    }

    /// The JSON `source` member: absent for a response in the capture, as most databases are.
    var jsonName: String? {
        switch self {
        case .response: nil
        case .earlierInput: "earlier-input"
        case .supplied: "supplied"
        }
    }

    /// The file (and, for a capture, accessory and packet) a borrowed database came from.
    var origin: String? {
        switch self {
        case .response: nil
        case .earlierInput(let name), .supplied(let name): name
        }
    }
}

extension HAPTransport {
    /// What the transport reads an accessory database from, as reports name it.
    public var databaseReadName: String {
        switch self {
        case .ip: "/accessories"
        case .bluetoothLE: "GATT database"
        case .coap: "database PDU"
        }
    }
}
