import HAPCrypto
import HAPEvents
import Packets
import TLV8

/// Everything gathered about one pairing exchange while it runs: its steps, checks and the
/// values it revealed, and at its end the `pairingExchange` event.
///
/// Bounded: a peer repeating messages without starting over keeps at most `maximumSteps` steps
/// and as many checks.
package struct PairingExchangeRecord {
    /// Far more than the six messages of a pair-setup.
    package static let maximumSteps = 32

    package let procedure: PairingProcedure
    package var method: PairingMethod?
    package var flags: PairingFlags?
    package private(set) var steps: [PairingExchangeEvent.Step] = []
    package var lastState: PairingState?
    package var lastTime: Timestamp?
    package private(set) var checks: [PairingCheck] = []
    package private(set) var srpProblems: [SRPValueProblem] = []
    package var outcome: PairingOutcome?
    // Pair setup.
    package var salt: [UInt8]?
    package var accessorySRPKey: [UInt8]?
    /// Why M2 gave no salt or B, when it did not.
    package var accessorySRPValuesMissing: String?
    package var controllerSRPKey: [UInt8]?
    package var controllerProof: [UInt8]?
    package var sessionKey: SecretBytes?
    package var sessionKeyEncoding: SRPSessionKeyEncoding = .full
    // Pair verify.
    package var controllerEphemeralKey: [UInt8]?
    package var accessoryEphemeralKey: [UInt8]?
    package var secrets: PairVerifySecrets?
    // Learned identities.
    package var controllerID: String?
    package var accessoryID: String?
    package var controllerLTPK: [UInt8]?
    package var accessoryLTPK: [UInt8]?
    // Pairings.
    package var pairingsRequest: PairingsMessage?
    package var pairingsResponse: PairingsMessage?

    package init(procedure: PairingProcedure) {
        self.procedure = procedure
    }

    package mutating func append(_ step: PairingExchangeEvent.Step) {
        if steps.count < Self.maximumSteps { steps.append(step) }
    }

    package mutating func record(_ check: PairingCheck) {
        if checks.count < Self.maximumSteps { checks.append(check) }
    }

    /// Replaces the detail of the check of `kind`, once a later step says what it meant.
    package mutating func amend(_ kind: PairingCheck.Kind, detail: (String) -> String) {
        guard let index = checks.firstIndex(where: { $0.kind == kind }) else { return }
        checks[index] = PairingCheck(kind, checks[index].outcome, detail: detail(checks[index].detail))
    }

    package mutating func record(_ problems: [SRPValueProblem]) {
        srpProblems += problems.prefix(Self.maximumSteps - srpProblems.count)
    }

    /// A pair-setup with the Transient flag and without MFi authentication (PROTOCOL §2.5).
    package var isTransientSetup: Bool {
        flags?.contains(.transient) == true && method != .pairSetupWithAuth
    }

    /// The exchange as its event reports it.
    package func event(connection: ConnectionInfo, sessionControllerID: String?) -> PairingExchangeEvent {
        PairingExchangeEvent(
            connection: connection, procedure: procedure, method: method, flags: flags,
            outcome: outcome ?? .incomplete(lastState: lastState), steps: steps, checks: checks, srpProblems: srpProblems,
            salt: salt, controllerEphemeralKey: controllerEphemeralKey, accessoryEphemeralKey: accessoryEphemeralKey,
            controllerPairingID: controllerID, accessoryPairingID: accessoryID, controllerLTPK: controllerLTPK,
            accessoryLTPK: accessoryLTPK, pairingsRequest: pairingsRequest, pairingsResponse: pairingsResponse,
            sessionControllerID: sessionControllerID)
    }
}
