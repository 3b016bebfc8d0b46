import HAPCrypto
import Packets

/// The moment a connection switched to encrypted frames.
public struct SessionStartEvent: Sendable {
    public let connection: ConnectionInfo
    public let trigger: Trigger
    /// Which directions hapscope can decrypt.
    public let decryptable: Set<HAPDirection>
    /// Where the keys came from, when there are any.
    public let keySource: KeySource?
    /// Why a direction cannot be decrypted, when it cannot, in words a user can act on.
    public let reason: String?
    /// The session keys in hex, per direction, only when the user asked (`--show-keys`).
    public let revealedKeys: [HAPDirection: String]?

    public enum Trigger: String, Sendable {
        case pairVerify = "pair-verify M4"
        case transientPairSetup = "transient pair-setup M4"
        /// The session was already encrypted when the capture started.
        case beforeCapture = "before the capture started"
    }
}

/// Something wrong with an encrypted session, reported once where it first shows.
public struct SessionProblemEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let kind: Kind
    /// The frame's counter (its position in the direction), when the problem is about a frame.
    public let frameCounter: UInt64?
    public let message: String

    public enum Kind: String, Sendable, Hashable {
        /// The very first frame fails with the keys from the key log: the key is not this session's.
        case keyDoesNotFit = "key-does-not-fit"
        /// A later frame fails authentication although earlier frames decrypted.
        case authenticationFailed = "authentication-failed"
        /// The frame authenticates with a later counter: the sender skipped counter values.
        case counterSkipped = "counter-skipped"
        /// The frame authenticates with an earlier counter: the sender reused a nonce.
        case counterReused = "counter-reused"
        /// A frame longer than HAP's 1024-byte limit (decoded anyway).
        case oversizeFrame = "oversize-frame"
        /// Plaintext HTTP where encrypted frames were due.
        case plaintextAfterEncryption = "plaintext-after-encryption"
        /// Bytes missing from the capture inside the session; frames after them cannot be read.
        case gap = "gap"
        /// The frame length field makes no sense, so frames cannot be followed any further.
        case frameBoundaryLost = "frame-boundary-lost"
    }
}

/// Frame counts of one direction of an encrypted session.
public struct FrameStatistics: Sendable, Hashable {
    public var frames = 0
    public var ciphertextBytes = 0
    public var plaintextBytes = 0
    public var largestFrame = 0
    public var oversizeFrames = 0
    public var firstFrameTime: Timestamp?
    public var lastFrameTime: Timestamp?
}
