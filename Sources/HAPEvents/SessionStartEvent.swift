/// The moment a connection switched to encrypted messages.
public struct SessionStartEvent: Sendable {
    public let connection: ConnectionInfo
    public let trigger: Trigger
    /// Which directions hapscope can decrypt.
    public let decryptable: Set<HAPDirection>
    /// Where the keys came from, when there are any.
    public let keySource: KeySource?
    /// Why a direction cannot be decrypted, when one cannot.
    public let undecryptableBecause: UndecryptableReason?
    /// The session keys in hex, per direction, only when the user asked (`--show-keys`).
    public let revealedKeys: [HAPDirection: String]?
    /// HAP over IP: the TCP sequence number of each direction's first encrypted byte, for
    /// consumers that rewrite the session's packets.
    public let tcpFrameStart: [HAPDirection: UInt32]?
    /// A session already encrypted when the capture started: how its key-log entry was chosen.
    public let keyLogMatch: KeyLogMatch?

    public init(
        connection: ConnectionInfo, trigger: Trigger, decryptable: Set<HAPDirection>, keySource: KeySource?,
        undecryptableBecause: UndecryptableReason?, revealedKeys: [HAPDirection: String]? = nil,
        tcpFrameStart: [HAPDirection: UInt32]? = nil, keyLogMatch: KeyLogMatch? = nil
    ) {
        self.keyLogMatch = keyLogMatch
        self.connection = connection
        self.trigger = trigger
        self.decryptable = decryptable
        self.keySource = keySource
        self.undecryptableBecause = undecryptableBecause
        self.revealedKeys = revealedKeys
        self.tcpFrameStart = tcpFrameStart
    }

    public enum Trigger: String, Sendable, Hashable {
        case pairVerify = "pair-verify M4"
        case transientPairSetup = "transient pair-setup M4"
        /// HAP over Bluetooth LE: a pair-resume M2 resumed an earlier session.
        case pairResume = "pair-resume M2"
        /// The session was already encrypted when the capture started.
        case beforeCapture = "before the capture started"
    }

    /// How the key-log session of a session joined mid-way was found.
    public enum KeyLogMatch: String, Sendable, Hashable {
        /// Its `SESSION_ENDPOINTS` line names this connection's endpoints.
        case sessionEndpoints = "SESSION_ENDPOINTS"
        /// Its keys were tried against the connection's frames, and one verified.
        case keyTrial = "key trial"
    }

    /// Why hapscope cannot decrypt (a direction of) the session. Renderers choose the words.
    public enum UndecryptableReason: Sendable, Hashable {
        /// The session's pair-verify is not in the capture, and the key log has no session to try.
        case startedBeforeCapture
        /// The session's pair-verify is not in the capture, and none of the key log's sessions
        /// (`tried` of them) opened its frames.
        case noKeyLogSessionOpens(tried: Int)
        /// The key log has no entry for this pair-verify; the controller's ephemeral key, when
        /// captured, names the entry that would open it.
        case noKeyLogEntry(controllerEphemeralKey: [UInt8]?)
        /// No `PAIR_SETUP_SESSION_KEY` for this transient pair-setup's SRP key A.
        case noPairSetupSessionKey
        /// The key log holds the key of this direction only.
        case onlyOneDirection(HAPDirection)
    }
}
