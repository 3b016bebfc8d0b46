/// How the analysis joined one direction of a session that was already encrypted when the
/// capture started: where its frames were found, or why they were not.
public struct SessionJoinEvent: Sendable, Hashable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let outcome: Outcome

    public init(connection: ConnectionInfo, direction: HAPDirection, outcome: Outcome) {
        self.connection = connection
        self.direction = direction
        self.outcome = outcome
    }

    public enum Outcome: Sendable, Hashable {
        case joined(Joined)
        case notJoined(NotJoined)

        public var isJoined: Bool {
            if case .joined = self { true } else { false }
        }
    }

    /// The direction decrypts from its first whole frame on.
    public struct Joined: Sendable, Hashable {
        /// Bytes before the first whole frame: the end of a frame sent before the capture.
        public let skippedBytes: Int
        /// The nonce counter of the first whole frame: how many frames the direction had sent.
        public let firstCounter: UInt64
        /// Plaintext before the first message that starts in the capture: the rest of a message
        /// whose start was not captured.
        public let cutMessageBytes: Int
        /// Whether a message start was found at all (false: every byte decrypted was the rest of
        /// a message, or the direction carried nothing after the join).
        public let foundMessageStart: Bool
        /// Tag checks spent finding the frames.
        public let countersTried: UInt64

        public init(skippedBytes: Int, firstCounter: UInt64, cutMessageBytes: Int, foundMessageStart: Bool, countersTried: UInt64) {
            self.skippedBytes = skippedBytes
            self.firstCounter = firstCounter
            self.cutMessageBytes = cutMessageBytes
            self.foundMessageStart = foundMessageStart
            self.countersTried = countersTried
        }
    }

    /// Why the direction stays encrypted.
    public enum NotJoined: Sendable, Hashable {
        /// The key log holds no key for this direction of the session the other direction
        /// joined.
        case noKeyForDirection
        /// No offset in the first bytes starts a chain of plausible frame lengths.
        case noFrameBoundary
        /// No candidate key verifies a frame at any plausible boundary, with every counter from
        /// 0 up to the `frame.counter-search` limit tried per key (`reachedCounterLimit`), or as
        /// many as the `frame.join-checks` limit afforded (`reachedCheckBudget`).
        case noKeyOpens(keysTried: Int, countersTried: UInt64, reachedCounterLimit: Bool, reachedCheckBudget: Bool)
        /// The direction carried no bytes.
        case nothingCaptured
    }
}
