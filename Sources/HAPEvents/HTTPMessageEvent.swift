import HTTP1
import Packets

/// One HAP HTTP message as a peer sent it: plaintext, or recovered from encrypted frames.
public struct HTTPMessageEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let message: HTTPMessage
    /// Whether the message travelled inside encrypted frames (and so was decrypted to be shown).
    public let encrypted: Bool
    /// The packets holding the message's first and last byte.
    public let firstPacket: PacketInfo
    public let lastPacket: PacketInfo
    /// For a response: the request it answers (HAP answers in order; EVENTs answer nothing).
    public let request: RequestReference?
    /// For a response: how long the accessory took to answer, judged against the slow marks.
    public let responseTiming: ResponseTiming?
    /// For an EVENT: what breaks HAP's notification rules (bursts, EVENTs inside a response, after
    /// unsubscribing); empty for every other message.
    public let notificationProblems: [NotificationProblem]


    /// Set when the body carries key material inside a characteristic value (the SRTP master
    /// keys and salts of Setup Endpoints) and the user did not ask for secrets (`--show-keys`):
    /// what reports show instead of `message.body`.
    public let bodyWithoutSecrets: BodyWithoutSecrets?

    /// A body whose key material reports must not print.
    public enum BodyWithoutSecrets: Sendable, Hashable {
        /// The body with the secret bytes zeroed inside their base64 text: as long as the body,
        /// every other byte as sent.
        case redacted([UInt8])
        /// The secrets could not be located in the text (an escaped value): the body is not shown.
        case withheld
    }

    /// The body as reports may print it: without key material unless the user asked for it,
    /// nil when it is withheld whole.
    public var printableBody: ArraySlice<UInt8>? {
        switch bodyWithoutSecrets {
        case nil: message.body
        case .redacted(let bytes)?: bytes[...]
        case .withheld?: nil
        }
    }

    public init(
        connection: ConnectionInfo, direction: HAPDirection, message: HTTPMessage, encrypted: Bool,
        firstPacket: PacketInfo, lastPacket: PacketInfo, request: RequestReference?,
        responseTiming: ResponseTiming? = nil, notificationProblems: [NotificationProblem] = [],
        bodyWithoutSecrets: BodyWithoutSecrets? = nil
    ) {
        self.connection = connection
        self.direction = direction
        self.message = message
        self.encrypted = encrypted
        self.firstPacket = firstPacket
        self.lastPacket = lastPacket
        self.request = request
        self.responseTiming = responseTiming
        self.notificationProblems = notificationProblems
        self.bodyWithoutSecrets = bodyWithoutSecrets
    }

    /// What a response answers: enough to name it and time the accessory.
    public struct RequestReference: Sendable, Hashable {
        public let method: String
        public let target: String
        public let packet: PacketInfo

        public init(method: String, target: String, packet: PacketInfo) {
            self.method = method
            self.target = target
            self.packet = packet
        }
    }
}
