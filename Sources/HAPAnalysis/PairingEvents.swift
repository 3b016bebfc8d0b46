import HAPCrypto
import Packets
import TLV8

/// The three pairing procedures HAP runs over HTTP.
public enum PairingProcedure: String, Sendable, Hashable, CustomStringConvertible {
    case pairSetup = "pair-setup"
    case pairVerify = "pair-verify"
    case pairings = "pairings"

    public var description: String { rawValue }
}

/// A pairing body decoded for its procedure.
public enum PairingContent: Sendable, Hashable {
    case pairSetup(PairSetupMessage)
    case pairVerify(PairVerifyMessage)
    case pairings(PairingsMessage)
}

/// One step of a pairing ladder.
public struct PairingMessageEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let procedure: PairingProcedure
    /// The state the message is at: from its State item, or assumed from the exchange.
    public let state: PairingState?
    public let content: PairingContent?
    /// The body as decoded, items in wire order, and what a strict reader would reject.
    public let body: TLV8Body
    public let diagnostics: [PairingDiagnostic]
    /// The `EncryptedData` sub-TLV, when the key log let hapscope open it.
    public let decrypted: PairingSubTLV?
    /// Seconds since the previous message of the same exchange; for a response, how long the
    /// accessory took.
    public let elapsed: Double?
}

/// A check hapscope made on a pairing exchange with the keys it had.
public struct PairingCheck: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: Sendable, Hashable {
        case passed
        case failed
        /// Not made, and why (no key for it, message missing).
        case notChecked(String)
    }

    /// A stable name: `srp-controller-proof`, `srp-accessory-proof`; for each encrypted step N
    /// (M2, M3 of pair-verify; M5, M6 of pair-setup) `mN-decryption` (the sub-TLV does not open
    /// with the logged secret), `mN-sub-tlv` (it opens but lacks an item) and `mN-signature` (the
    /// Ed25519 signature itself).
    public let name: String
    public let outcome: Outcome
    public let detail: String

    public var description: String {
        switch outcome {
        case .passed: "\(name): passed (\(detail))"
        case .failed: "\(name): FAILED (\(detail))"
        case .notChecked(let reason): "\(name): not checked (\(reason))"
        }
    }
}

/// How a pairing procedure ended.
public enum PairingOutcome: Sendable, Hashable, CustomStringConvertible {
    case succeeded
    /// The accessory answered with an Error item at `state`.
    case failed(state: PairingState, error: PairingErrorCode?, retryDelay: UInt64?)
    /// The connection ended, or another procedure started, after `lastState`.
    case incomplete(lastState: PairingState?)

    public var description: String {
        switch self {
        case .succeeded: "success"
        case .failed(let state, let error, let retryDelay):
            "\(error.map { "\($0)" } ?? "error") at \(state)" + (retryDelay.map { ", retry after \($0) s" } ?? "")
        case .incomplete(let lastState): "incomplete" + (lastState.map { " after \($0)" } ?? "")
        }
    }
}

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
    public let srpProblems: [SRPParameterProblem]
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
    /// The controller's permissions on this session, when a pairings exchange is judged for
    /// admin rights and the key log or an earlier exchange tells them.
    public let sessionControllerID: String?

    public struct Step: Sendable {
        public let state: PairingState?
        public let direction: HAPDirection
        public let packet: PacketInfo
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
