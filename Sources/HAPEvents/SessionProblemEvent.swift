/// Something wrong with an encrypted session or with the exchanges a connection carries,
/// reported once where it first shows.
public struct SessionProblemEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let kind: Kind
    /// The frame's counter (its position in the direction), when the problem is about a frame.
    public let frameCounter: UInt64?
    public let message: String

    public init(connection: ConnectionInfo, direction: HAPDirection, kind: Kind, frameCounter: UInt64?, message: String) {
        self.connection = connection
        self.direction = direction
        self.kind = kind
        self.frameCounter = frameCounter
        self.message = message
    }

    public enum Kind: String, Sendable, Hashable, CaseIterable {
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
        /// Plaintext where encrypted messages were due.
        case plaintextAfterEncryption = "plaintext-after-encryption"
        /// Bytes missing from the capture inside the session; frames after them cannot be read.
        case gap = "gap"
        /// The frame length field makes no sense, so frames cannot be followed any further.
        case frameBoundaryLost = "frame-boundary-lost"
        /// A HAP PDU response carries another transaction ID than the request it answers (HAP-BLE
        /// and HAP over CoAP: HomeKitADK HAPBLEProcedure.c answers with the request's TID).
        case transactionMismatch = "transaction-mismatch"
    }
}
