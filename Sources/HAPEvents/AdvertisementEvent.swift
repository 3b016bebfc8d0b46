import DNS
import Packets

/// A HAP or Matter service seen in an mDNS message, with what changed since the same instance
/// was last seen.
public struct AdvertisementEvent: Sendable {
    /// Who sent the mDNS message.
    public let sender: Endpoint
    public let service: ServiceAdvertisement
    /// Whether this message was a response (announcement or answer) rather than a probe.
    public let isResponse: Bool
    /// TXT keys whose value differs from the previous advertisement of the same instance; empty
    /// the first time an instance is seen.
    public let changes: [TXTChange]
    public let isFirstSighting: Bool
    /// The advertised `sh` judged against the setup ID the user gave; nil when there is no
    /// setup ID, no device ID or no `sh`.
    public let setupHash: SetupHashCheck?
    /// Problems of the mDNS message that concern this service (e.g. an SRV target with no address).
    public let messageDiagnostics: [DiscoveryDiagnostic]

    public init(
        sender: Endpoint, service: ServiceAdvertisement, isResponse: Bool, changes: [TXTChange], isFirstSighting: Bool,
        setupHash: SetupHashCheck? = nil, messageDiagnostics: [DiscoveryDiagnostic] = []
    ) {
        self.sender = sender
        self.service = service
        self.isResponse = isResponse
        self.changes = changes
        self.isFirstSighting = isFirstSighting
        self.setupHash = setupHash
        self.messageDiagnostics = messageDiagnostics
    }

    /// Whether the advertised `sh` matches the setup ID the user gave; nil when either is missing.
    public var setupHashMatches: Bool? { setupHash?.matches }

    public var isHAP: Bool { service.hap != nil }
    public var isMatter: Bool { service.matter != nil }
}

/// An advertised setup hash against the one the user's setup ID gives: the first 4 bytes of
/// SHA-512(setup ID ‖ device ID) (PROTOCOL §7).
public struct SetupHashCheck: Sendable, Hashable {
    public let setupID: String
    /// The device ID as advertised (the hash covers it exactly as spelled).
    public let deviceID: String
    public let expected: [UInt8]
    public let advertised: [UInt8]

    public init(setupID: String, deviceID: String, expected: [UInt8], advertised: [UInt8]) {
        self.setupID = setupID
        self.deviceID = deviceID
        self.expected = expected
        self.advertised = advertised
    }

    public var matches: Bool { expected == advertised }
}
