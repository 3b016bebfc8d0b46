import Packets
import WireParsing

/// Totals for the whole run, and the facts about the user's own inputs that the analysis
/// judged.
public struct InputSummary: Sendable {
    public var packets = 0
    public var bytes = 0
    public var firstPacketTime: Timestamp?
    public var lastPacketTime: Timestamp?
    public var tcpConnections = 0
    public var hapConnections = 0
    public var udpDatagrams = 0
    public var mdnsMessages = 0
    /// Packets that were neither TCP nor UDP over IP, or not IP at all.
    public var otherPackets = 0
    public var undecodablePackets = 0
    /// How often each resource limit was reached.
    public var limitsReached: [LimitName: Int] = [:]
    /// The setup code the user gave (`--setup-code`), as HAP judges it.
    public var setupCode: SetupCodeFact?

    public init() {}
}

/// The accessory's setup code, as the user gave it, and whether HAP forbids it.
public struct SetupCodeFact: Sendable, Hashable {
    /// The code as written, `XXX-XX-XXX`.
    public let code: String
    /// Why HAP forbids it (all digits equal, an ascending or descending run), or nil when it is
    /// allowed.
    public let forbiddenBecause: String?

    public init(code: String, forbiddenBecause: String?) {
        self.code = code
        self.forbiddenBecause = forbiddenBecause
    }
}
