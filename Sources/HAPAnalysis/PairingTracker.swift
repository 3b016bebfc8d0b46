import HAPCrypto
import HTTP1
import Packets
import TLV8
import WireParsing

/// How a connection's traffic continues after a pairing response.
struct SessionStart {
    let trigger: SessionStartEvent.Trigger
    let keys: DirectionalSessionKeys
    let source: KeySource?
    /// Why there are no keys, when there are none.
    let reason: String?
}

/// Follows the pair-setup, pair-verify and `/pairings` exchanges of one connection, decodes each
/// message, opens the encrypted sub-TLVs and checks proofs and signatures with what the key log
/// and earlier exchanges provide.
struct PairingTracker {
    /// The steps and checks one exchange keeps: far more than the six messages of a pair-setup.
    static let maximumSteps = 32
    private var exchange: Exchange?
    /// The controller this session belongs to, from a decrypted pair-verify M3.
    private(set) var verifiedControllerID: String?
    /// The accessory's pairing identifier (= device id), from a decrypted M2 or M6.
    private(set) var accessoryID: String?

    /// Everything gathered about the exchange in progress.
    private struct Exchange {
        let procedure: PairingProcedure
        var method: PairingMethod?
        var flags: PairingFlags?
        var steps: [PairingExchangeEvent.Step] = []
        var lastState: PairingState?
        var lastTime: Timestamp?
        var checks: [PairingCheck] = []
        var srpProblems: [SRPParameterProblem] = []
        var outcome: PairingOutcome?
        // Pair setup.
        var salt: [UInt8]?
        var accessorySRPKey: [UInt8]?
        var controllerSRPKey: [UInt8]?
        var controllerProof: [UInt8]?
        var sessionKey: SecretBytes?
        var sessionKeyEncoding: SRPSessionKeyEncoding = .full
        // Pair verify.
        var controllerEphemeralKey: [UInt8]?
        var accessoryEphemeralKey: [UInt8]?
        var secrets: PairVerifySecrets?
        // Learned identities.
        var controllerID: String?
        var accessoryID: String?
        var controllerLTPK: [UInt8]?
        var accessoryLTPK: [UInt8]?
        // Pairings.
        var pairingsRequest: PairingsMessage?
        var pairingsResponse: PairingsMessage?

        init(procedure: PairingProcedure) {
            self.procedure = procedure
        }
    }

    // MARK: Messages

    /// Decodes one pairing request or response and advances the exchange. Returns how the session
    /// continues when the message completes a pair-verify (or a transient pair-setup).
    mutating func handle(
        _ procedure: PairingProcedure, direction: HAPDirection, message: HTTPMessage, packet: PacketInfo,
        connection: ConnectionInfo, context: AnalysisContext
    ) -> SessionStart? {
        var cursor = ByteCursor(message.bodySpan, layer: .tlv8)
        let body = TLV8Body(parsingLeniently: &cursor)
        if direction == .controllerToAccessory, startsNewExchange(procedure, body: body) {
            finish(at: packet, connection: connection, context: context)
            exchange = Exchange(procedure: procedure)
        }
        guard exchange?.procedure == procedure else {
            // A response without the request that opened its procedure: decode it on its own.
            exchange = Exchange(procedure: procedure)
            return handle(procedure, direction: direction, message: message, packet: packet, connection: connection, context: context)
        }
        let expected = expectedState(direction: direction)
        let elapsed = exchange?.lastTime.map { packet.timestamp - $0 }

        var content: PairingContent?
        var state: PairingState?
        var diagnostics: [PairingDiagnostic] = []
        var decrypted: PairingSubTLV?
        var start: SessionStart?
        switch procedure {
        case .pairSetup:
            let decoded = PairSetupMessage.decode(body, expectedState: expected)
            (state, diagnostics) = (decoded.state, decoded.diagnostics)
            if let message = decoded.content {
                content = .pairSetup(message)
                (decrypted, start) = pairSetupStep(message, context: context)
            }
        case .pairVerify:
            let decoded = PairVerifyMessage.decode(body, expectedState: expected)
            (state, diagnostics) = (decoded.state, decoded.diagnostics)
            if let message = decoded.content {
                content = .pairVerify(message)
                (decrypted, start) = pairVerifyStep(message, context: context)
            }
        case .pairings:
            let decoded = PairingsMessage.decode(body, expectedState: expected, requestMethod: exchange?.method)
            (state, diagnostics) = (decoded.state, decoded.diagnostics)
            if let message = decoded.content {
                content = .pairings(message)
                pairingsStep(message)
            }
        }
        // A peer repeating messages without starting over cannot grow the exchange without bound.
        if let count = exchange?.steps.count, count < Self.maximumSteps {
            exchange?.steps.append(.init(state: state, direction: direction, packet: packet))
        }
        exchange?.lastState = state ?? expected
        exchange?.lastTime = packet.timestamp
        context.emit(.pairingMessage(PairingMessageEvent(
            connection: connection, direction: direction, procedure: procedure, state: state, content: content,
            body: body, diagnostics: diagnostics, decrypted: decrypted, elapsed: elapsed)), packet)
        if exchange?.outcome != nil {
            finish(at: packet, connection: connection, context: context)
        }
        return start
    }

    /// A request opens a new exchange when it is an M1, or when no exchange of its procedure is open.
    private func startsNewExchange(_ procedure: PairingProcedure, body: TLV8Body) -> Bool {
        guard let exchange, exchange.procedure == procedure, exchange.outcome == nil else { return true }
        if let state = body.first(.state)?.value.first, state == PairingState.m1.rawValue { return true }
        return false
    }

    private func expectedState(direction: HAPDirection) -> PairingState? {
        guard let last = exchange?.lastState else { return direction == .controllerToAccessory ? .m1 : nil }
        return PairingState(rawValue: last.rawValue + 1)
    }

    // MARK: Pair setup

    private mutating func pairSetupStep(_ message: PairSetupMessage, context: AnalysisContext) -> (PairingSubTLV?, SessionStart?) {
        switch message {
        case .m1(let m1):
            exchange?.method = m1.method
            exchange?.flags = m1.flags
        case .m2(let m2):
            exchange?.salt = m2.salt
            exchange?.accessorySRPKey = m2.publicKey
            if let salt = m2.salt, let problem = SRPGroup.check(salt: salt.span.bytes) { exchange?.srpProblems.append(problem) }
            if let key = m2.publicKey, let problem = SRPGroup.check(publicKey: key.span.bytes, of: .accessory) {
                exchange?.srpProblems.append(problem)
            }
        case .m3(let m3):
            exchange?.controllerSRPKey = m3.publicKey
            exchange?.controllerProof = m3.proof
            if let key = m3.publicKey, let problem = SRPGroup.check(publicKey: key.span.bytes, of: .controller) {
                exchange?.srpProblems.append(problem)
            }
            checkControllerProof(context: context)
        case .m4(let m4):
            checkAccessoryProof(m4.proof)
            if isTransient {
                exchange?.outcome = .succeeded
                return (nil, transientSessionStart())
            }
        case .m5(let m5):
            return (openSetupSubTLV(m5.encryptedData, .pairSetupM5, context: context), nil)
        case .m6(let m6):
            let inner = openSetupSubTLV(m6.encryptedData, .pairSetupM6, context: context)
            exchange?.outcome = .succeeded
            return (inner, nil)
        case .error(let response):
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
        }
        return (nil, nil)
    }

    private var isTransient: Bool {
        exchange?.flags?.contains(.transient) == true && exchange?.method != .pairSetupWithAuth
    }

    private mutating func checkControllerProof(context: AnalysisContext) {
        guard let a = exchange?.controllerSRPKey, let proof = exchange?.controllerProof else { return }
        guard let k = context.keyLog.pairSetupSessionKey(forControllerPublicKey: a) else {
            record(PairingCheck(name: "srp-controller-proof", outcome: .notChecked("no PAIR_SETUP_SESSION_KEY for this A"), detail: ""))
            return
        }
        exchange?.sessionKey = k
        guard let salt = exchange?.salt, let b = exchange?.accessorySRPKey,
              let transcript = try? SRPTranscript(salt: salt.span.bytes, controllerPublicKey: a.span.bytes, accessoryPublicKey: b.span.bytes, sessionKey: k)
        else {
            record(PairingCheck(name: "srp-controller-proof", outcome: .notChecked("M2 salt or B missing"), detail: ""))
            return
        }
        if let convention = transcript.matchControllerProof(proof.span.bytes) {
            exchange?.sessionKeyEncoding = convention.sessionKey
            record(PairingCheck(name: "srp-controller-proof", outcome: .passed, detail: "M3 proof matches K, \(convention)"))
        } else {
            record(PairingCheck(name: "srp-controller-proof", outcome: .failed, detail: "M3 proof does not match the logged K under any padding convention"))
        }
    }

    private mutating func checkAccessoryProof(_ proof: [UInt8]?) {
        guard let proof, let k = exchange?.sessionKey, let salt = exchange?.salt, let a = exchange?.controllerSRPKey,
              let b = exchange?.accessorySRPKey, let controllerProof = exchange?.controllerProof,
              let transcript = try? SRPTranscript(salt: salt.span.bytes, controllerPublicKey: a.span.bytes, accessoryPublicKey: b.span.bytes, sessionKey: k)
        else { return }
        if let convention = transcript.matchAccessoryProof(proof.span.bytes, controllerProof: controllerProof.span.bytes) {
            record(PairingCheck(name: "srp-accessory-proof", outcome: .passed, detail: "M4 proof matches K, \(convention)"))
        } else {
            record(PairingCheck(name: "srp-accessory-proof", outcome: .failed, detail: "M4 proof does not match the logged K"))
        }
    }

    private func transientSessionStart() -> SessionStart {
        guard let k = exchange?.sessionKey,
              let keys = try? PairSetupKeys(srpSessionKey: k, encoding: exchange?.sessionKeyEncoding ?? .full)
        else {
            return SessionStart(trigger: .transientPairSetup, keys: DirectionalSessionKeys(controllerToAccessory: nil, accessoryToController: nil),
                                source: nil, reason: "no PAIR_SETUP_SESSION_KEY for this pair-setup's SRP key A")
        }
        return SessionStart(trigger: .transientPairSetup, keys: DirectionalSessionKeys(keys.transientSession), source: .pairSetupSessionKey, reason: nil)
    }

    /// Opens the M5 or M6 sub-TLV with the key derived from K, learns the identity and long-term
    /// key it carries and checks the signature over it.
    private mutating func openSetupSubTLV(_ encrypted: [UInt8]?, _ step: PairingMessage, context: AnalysisContext) -> PairingSubTLV? {
        let name = step == .pairSetupM5 ? "m5" : "m6"
        let check = name + "-signature"
        guard let encrypted else { return nil }
        guard let k = exchange?.sessionKey else {
            record(PairingCheck(name: check, outcome: .notChecked("no PAIR_SETUP_SESSION_KEY"), detail: ""))
            return nil
        }
        guard let keys = try? PairSetupKeys(srpSessionKey: k, encoding: exchange?.sessionKeyEncoding ?? .full),
              let plaintext = try? PairingEncryptedData.open(encrypted.span.bytes, of: step, key: keys.encryptionKey)
        else {
            record(PairingCheck(name: name + "-decryption", outcome: .failed, detail: "\(step) does not decrypt with the key derived from the logged K"))
            return nil
        }
        let inner = Self.decodeSubTLV(plaintext, step == .pairSetupM5 ? .pairSetupM5 : .pairSetupM6)
        guard let inner, let id = inner.identifier?.string, let ltpkBytes = inner.publicKey, let signature = inner.signature else {
            record(PairingCheck(name: name + "-sub-tlv", outcome: .failed, detail: "\(step) sub-TLV lacks Identifier, PublicKey or Signature"))
            return inner
        }
        let signed: PairingSignedInfo?
        let ltpk = try? Ed25519.PublicKey(ltpkBytes)
        if step == .pairSetupM5 {
            exchange?.controllerID = id
            exchange?.controllerLTPK = ltpkBytes
            context.controllerLTPKs[id.lowercased()] = ltpkBytes
            signed = ltpk.flatMap { try? PairingSignedInfo.pairSetupM5(controllerSignX: keys.controllerSignX, controllerPairingID: Array(id.utf8).span.bytes, controllerLongTermPublicKey: $0) }
        } else {
            exchange?.accessoryID = id
            exchange?.accessoryLTPK = ltpkBytes
            accessoryID = id
            context.accessoryLTPKs[id.lowercased()] = ltpkBytes
            signed = ltpk.flatMap { try? PairingSignedInfo.pairSetupM6(accessorySignX: keys.accessorySignX, accessoryPairingID: Array(id.utf8).span.bytes, accessoryLongTermPublicKey: $0) }
        }
        let signer = step == .pairSetupM5 ? "controller \(id)" : "accessory \(id)"
        record(Self.verify(signed, signature: signature, signer: ltpk, name: check, who: "\(signer) (long-term key from \(name.uppercased()))"))
        return inner
    }

    // MARK: Pair verify

    private mutating func pairVerifyStep(_ message: PairVerifyMessage, context: AnalysisContext) -> (PairingSubTLV?, SessionStart?) {
        switch message {
        case .m1(let m1):
            exchange?.controllerEphemeralKey = m1.publicKey
            exchange?.method = m1.method
        case .m2(let m2):
            exchange?.accessoryEphemeralKey = m2.publicKey
            if let controllerKey = exchange?.controllerEphemeralKey {
                exchange?.secrets = SessionKeyResolver.resolve(keyLog: context.keyLog, controllerKey: controllerKey, accessoryKey: m2.publicKey)
            }
            return (openVerifySubTLV(m2.encryptedData, .pairVerifyM2, context: context), nil)
        case .m3(let m3):
            return (openVerifySubTLV(m3.encryptedData, .pairVerifyM3, context: context), nil)
        case .m4:
            exchange?.outcome = .succeeded
            return (nil, verifiedSessionStart())
        case .error(let response):
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
        }
        return (nil, nil)
    }

    private func verifiedSessionStart() -> SessionStart {
        if let secrets = exchange?.secrets {
            return SessionStart(trigger: .pairVerify, keys: secrets.session, source: secrets.source, reason: nil)
        }
        let key = exchange?.controllerEphemeralKey.map { Hex.encode($0.prefix(8)) + "…" } ?? "(not captured)"
        return SessionStart(trigger: .pairVerify, keys: DirectionalSessionKeys(controllerToAccessory: nil, accessoryToController: nil),
                            source: nil, reason: "no key-log entry for this pair-verify (controller ephemeral key \(key))")
    }

    private mutating func openVerifySubTLV(_ encrypted: [UInt8]?, _ step: PairingMessage, context: AnalysisContext) -> PairingSubTLV? {
        let name = step == .pairVerifyM2 ? "m2" : "m3"
        let check = name + "-signature"
        guard let encrypted else { return nil }
        guard let keys = exchange?.secrets?.pairVerifyKeys else {
            let reason = exchange?.secrets == nil ? "no key-log entry for this pair-verify" : "the key log has session keys but no shared secret"
            record(PairingCheck(name: check, outcome: .notChecked(reason), detail: ""))
            return nil
        }
        guard let plaintext = try? PairingEncryptedData.open(encrypted.span.bytes, of: step, key: keys.encryptionKey) else {
            record(PairingCheck(name: name + "-decryption", outcome: .failed, detail: "\(step) does not decrypt with the logged shared secret"))
            return nil
        }
        let inner = Self.decodeSubTLV(plaintext, step == .pairVerifyM2 ? .pairVerifyM2 : .pairVerifyM3)
        guard let inner, let id = inner.identifier?.string, let signature = inner.signature,
              let controllerKey = exchange?.controllerEphemeralKey, let accessoryKey = exchange?.accessoryEphemeralKey
        else {
            record(PairingCheck(name: name + "-sub-tlv", outcome: .failed, detail: "\(step) sub-TLV lacks Identifier or Signature"))
            return inner
        }
        let idBytes = Array(id.utf8)
        if step == .pairVerifyM2 {
            exchange?.accessoryID = id
            accessoryID = id
            let signer = context.accessoryLTPK(id).flatMap { try? Ed25519.PublicKey($0) }
            let signed = try? PairingSignedInfo.pairVerifyM2(
                accessoryCurvePublicKey: accessoryKey.span.bytes, accessoryPairingID: idBytes.span.bytes, controllerCurvePublicKey: controllerKey.span.bytes)
            record(Self.verify(signed, signature: signature, signer: signer, name: check, who: "accessory \(id)"))
        } else {
            exchange?.controllerID = id
            verifiedControllerID = id
            let signer = context.controllerLTPK(id).flatMap { try? Ed25519.PublicKey($0) }
            let signed = try? PairingSignedInfo.pairVerifyM3(
                controllerCurvePublicKey: controllerKey.span.bytes, controllerPairingID: idBytes.span.bytes, accessoryCurvePublicKey: accessoryKey.span.bytes)
            record(Self.verify(signed, signature: signature, signer: signer, name: check, who: "controller \(id)"))
        }
        return inner
    }

    // MARK: Pairings

    private mutating func pairingsStep(_ message: PairingsMessage) {
        switch message {
        case .addPairingM1, .removePairingM1, .listPairingsM1:
            exchange?.method = message.method
            exchange?.pairingsRequest = message
        case .addPairingM2, .removePairingM2, .listPairingsM2:
            exchange?.pairingsResponse = message
            exchange?.outcome = .succeeded
        case .error(let response):
            exchange?.pairingsResponse = message
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
        }
    }

    // MARK: Shared

    private mutating func record(_ check: PairingCheck) {
        if let count = exchange?.checks.count, count < Self.maximumSteps { exchange?.checks.append(check) }
    }

    private static func decodeSubTLV(_ plaintext: [UInt8], _ context: PairingSubTLV.Context) -> PairingSubTLV? {
        var cursor = ByteCursor(plaintext.span.bytes, layer: .tlv8)
        return PairingSubTLV.decode(TLV8Body(parsingLeniently: &cursor), for: context).content
    }

    private static func verify(_ signed: PairingSignedInfo?, signature: [UInt8], signer: Ed25519.PublicKey?, name: String, who: String) -> PairingCheck {
        guard let signer else {
            return PairingCheck(name: name, outcome: .notChecked("no long-term public key known for \(who)"), detail: "")
        }
        guard let signed else {
            return PairingCheck(name: name, outcome: .failed, detail: "the signed material is malformed")
        }
        do {
            try signed.verify(signature: signature.span.bytes, signer: signer)
            return PairingCheck(name: name, outcome: .passed, detail: "Ed25519 signature of \(who) verified")
        } catch {
            return PairingCheck(name: name, outcome: .failed, detail: "Ed25519 signature of \(who) does not verify: \(error.reason)")
        }
    }

    /// Reports the exchange in progress, if any; called when it ends and when the connection closes.
    mutating func finish(at packet: PacketInfo?, connection: ConnectionInfo, context: AnalysisContext) {
        guard let exchange, !exchange.steps.isEmpty else {
            self.exchange = nil
            return
        }
        context.emit(.pairingExchange(PairingExchangeEvent(
            connection: connection, procedure: exchange.procedure, method: exchange.method, flags: exchange.flags,
            outcome: exchange.outcome ?? .incomplete(lastState: exchange.lastState), steps: exchange.steps,
            checks: exchange.checks, srpProblems: exchange.srpProblems, salt: exchange.salt,
            controllerEphemeralKey: exchange.controllerEphemeralKey, accessoryEphemeralKey: exchange.accessoryEphemeralKey,
            controllerPairingID: exchange.controllerID, accessoryPairingID: exchange.accessoryID,
            controllerLTPK: exchange.controllerLTPK, accessoryLTPK: exchange.accessoryLTPK,
            pairingsRequest: exchange.pairingsRequest, pairingsResponse: exchange.pairingsResponse,
            sessionControllerID: verifiedControllerID)), packet ?? exchange.steps.last?.packet)
        self.exchange = nil
    }
}
