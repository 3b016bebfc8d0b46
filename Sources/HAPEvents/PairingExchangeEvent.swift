import Packets
import TLV8

/// A whole pair-setup, pair-verify or `/pairings` exchange, reported when it ends.
public struct PairingExchangeEvent: Sendable {
    public let connection: ConnectionInfo
    public let procedure: PairingProcedure
    /// PairSetup, PairSetupWithAuth, AddPairing, … when the M1 said.
    public let method: PairingMethod?
    public let flags: PairingFlags?
    public let outcome: PairingOutcome
    /// When each state was seen, in order.
    public let steps: [Step]
    public let checks: [PairingCheck]
    /// SRP values that break HAP's rules (pair-setup only).
    public let srpProblems: [SRPValueProblem]
    /// Public values worth comparing across exchanges (the audit does): the SRP salt, the two
    /// ephemeral X25519 public keys of a pair-verify.
    public let salt: [UInt8]?
    public let controllerEphemeralKey: [UInt8]?
    public let accessoryEphemeralKey: [UInt8]?
    /// Pairing identifiers and long-term public keys learned from the exchange.
    public let controllerPairingID: String?
    public let accessoryPairingID: String?
    public let controllerLTPK: [UInt8]?
    public let accessoryLTPK: [UInt8]?
    /// For `/pairings`: the pairing added or removed and its permissions, or the listed entries.
    public let pairingsRequest: PairingsMessage?
    public let pairingsResponse: PairingsMessage?
    /// The controller this session belongs to, from the session's decrypted pair-verify M3.
    public let sessionControllerID: String?

    public init(
        connection: ConnectionInfo, procedure: PairingProcedure, method: PairingMethod? = nil, flags: PairingFlags? = nil,
        outcome: PairingOutcome, steps: [Step], checks: [PairingCheck] = [], srpProblems: [SRPValueProblem] = [],
        salt: [UInt8]? = nil, controllerEphemeralKey: [UInt8]? = nil, accessoryEphemeralKey: [UInt8]? = nil,
        controllerPairingID: String? = nil, accessoryPairingID: String? = nil, controllerLTPK: [UInt8]? = nil,
        accessoryLTPK: [UInt8]? = nil, pairingsRequest: PairingsMessage? = nil, pairingsResponse: PairingsMessage? = nil,
        sessionControllerID: String? = nil
    ) {
        self.connection = connection
        self.procedure = procedure
        self.method = method
        self.flags = flags
        self.outcome = outcome
        self.steps = steps
        self.checks = checks
        self.srpProblems = srpProblems
        self.salt = salt
        self.controllerEphemeralKey = controllerEphemeralKey
        self.accessoryEphemeralKey = accessoryEphemeralKey
        self.controllerPairingID = controllerPairingID
        self.accessoryPairingID = accessoryPairingID
        self.controllerLTPK = controllerLTPK
        self.accessoryLTPK = accessoryLTPK
        self.pairingsRequest = pairingsRequest
        self.pairingsResponse = pairingsResponse
        self.sessionControllerID = sessionControllerID
    }

    public struct Step: Sendable {
        public let state: PairingState?
        public let direction: HAPDirection
        public let packet: PacketInfo

        public init(state: PairingState?, direction: HAPDirection, packet: PacketInfo) {
            self.state = state
            self.direction = direction
            self.packet = packet
        }
    }

    /// The check of `kind`, when it was made.
    public func check(_ kind: PairingCheck.Kind) -> PairingCheck? {
        checks.first { $0.kind == kind }
    }

    /// Seconds from each request to its response, keyed by the response's state (M2, M4, M6):
    /// how long the accessory took.
    public var accessoryResponseTimes: [(state: PairingState, seconds: Double)] {
        var times: [(PairingState, Double)] = []
        for (request, response) in zip(steps, steps.dropFirst())
        where request.direction == .controllerToAccessory && response.direction == .accessoryToController {
            if let state = response.state { times.append((state, response.packet.timestamp - request.packet.timestamp)) }
        }
        return times
    }

    public var succeeded: Bool { outcome == .succeeded }

    /// A pair-setup with the Transient flag and without MFi authentication: it ends at M4, keys a
    /// session from SRP K and stores no pairing (PROTOCOL §2.5; ADK ignores the flag with
    /// PairSetupWithAuth).
    public var isTransientSetup: Bool {
        procedure == .pairSetup && flags?.contains(.transient) == true && method != .pairSetupWithAuth
    }
}
