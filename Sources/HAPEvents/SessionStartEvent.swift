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

    public init(
        connection: ConnectionInfo, trigger: Trigger, decryptable: Set<HAPDirection>, keySource: KeySource?,
        undecryptableBecause: UndecryptableReason?, revealedKeys: [HAPDirection: String]? = nil,
        tcpFrameStart: [HAPDirection: UInt32]? = nil
    ) {
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
        /// The session was already encrypted when the capture started.
        case beforeCapture = "before the capture started"
    }

    /// Why hapscope cannot decrypt (a direction of) the session. Renderers choose the words.
    public enum UndecryptableReason: Sendable, Hashable {
        /// The session's pair-verify is not in the capture, and no key opened it.
        case startedBeforeCapture
        /// The key log has no entry for this pair-verify; the controller's ephemeral key, when
        /// captured, names the entry that would open it.
        case noKeyLogEntry(controllerEphemeralKey: [UInt8]?)
        /// No `PAIR_SETUP_SESSION_KEY` for this transient pair-setup's SRP key A.
        case noPairSetupSessionKey
        /// The key log holds the key of this direction only.
        case onlyOneDirection(HAPDirection)
    }
}
