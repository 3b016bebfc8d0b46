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

    public init(
        connection: ConnectionInfo, direction: HAPDirection, message: HTTPMessage, encrypted: Bool,
        firstPacket: PacketInfo, lastPacket: PacketInfo, request: RequestReference?,
        responseTiming: ResponseTiming? = nil, notificationProblems: [NotificationProblem] = []
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
