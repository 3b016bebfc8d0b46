/// Something wrong with an encrypted session or with the exchanges a connection carries,
/// reported once where it first shows.
public struct SessionProblemEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let kind: Kind
    /// The frame's counter (its position in the direction), when the problem is about a frame.
    public let frameCounter: UInt64?
    /// For `counterSkipped` and `counterReused` on a transport whose receivers search for the
    /// sender's counter instead of dropping the session (HAP over CoAP): where the counter was and
    /// whether the controller's search reaches it. Nil where a wrong counter is fatal (HAP over IP
    /// and Bluetooth LE).
    public let counterDrift: CounterDrift?
    public let message: String

    public init(
        connection: ConnectionInfo, direction: HAPDirection, kind: Kind, frameCounter: UInt64?, counterDrift: CounterDrift? = nil,
        message: String
    ) {
        self.connection = connection
        self.direction = direction
        self.kind = kind
        self.frameCounter = frameCounter
        self.counterDrift = counterDrift
        self.message = message
    }

    /// A body that opened only under a counter other than the one due.
    public struct CounterDrift: Sendable, Hashable {
        /// The counter due: one more than the last that opened in the stream.
        public let expected: UInt64
        /// The counter that opened the body; the stream goes on from it.
        public let opened: UInt64
        /// Whether the receiver's own search reaches `opened`, so that it reads the body and goes
        /// on in step (false: it drops the body or the session); nil where the receiver's search
        /// is not known.
        public let receiverRecovers: Bool?

        public init(expected: UInt64, opened: UInt64, receiverRecovers: Bool?) {
            self.expected = expected
            self.opened = opened
            self.receiverRecovers = receiverRecovers
        }
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
        /// A message sent again under the identifier that marks it as a retransmission (a CoAP
        /// message ID, RFC 7252 §4.5) with other bytes: the receiver drops it as a duplicate, so
        /// what it carries differently never arrives.
        case retransmissionDiffers = "retransmission-differs"
    }
}
