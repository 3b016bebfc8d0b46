import HAPCrypto
import HAPEvents
import TLV8

// HAP: Pair Setup (PROTOCOL §2): SRP-6a in M1–M4, then the long-term keys in M5 and M6.
extension PairingFollower {
    mutating func pairSetupStep(_ message: PairSetupMessage, context: AnalysisContext) -> StepResult {
        var step = StepResult()
        switch message {
        case .m1(let m1):
            exchange?.method = m1.method
            exchange?.flags = m1.flags
        case .m2(let m2):
            exchange?.salt = m2.salt
            exchange?.accessorySRPKey = m2.publicKey
            exchange?.accessorySRPValuesMissing = SRPChecks.missingValues(of: m2)
            if let salt = m2.salt { step.srpProblems += SRPChecks.problems(salt: salt) }
            if let key = m2.publicKey { step.srpProblems += SRPChecks.problems(publicValue: key, of: .accessory) }
        case .m3(let m3):
            exchange?.controllerSRPKey = m3.publicKey
            exchange?.controllerProof = m3.proof
            if let key = m3.publicKey { step.srpProblems += SRPChecks.problems(publicValue: key, of: .controller) }
            checkControllerProof(context: context)
        case .m4(let m4):
            if let exchange, let proof = m4.proof, let check = SRPChecks.accessoryProof(proof, in: exchange) {
                self.exchange?.record(check)
            }
            if exchange?.isTransientSetup == true {
                exchange?.outcome = .succeeded
                step.sessionStart = transientSessionStart()
            }
        case .m5(let m5):
            step.decrypted = openSetupSubTLV(m5.encryptedData, .m5, context: context)
        case .m6(let m6):
            step.decrypted = openSetupSubTLV(m6.encryptedData, .m6, context: context)
            exchange?.outcome = .succeeded
        case .error(let response):
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
            if response.state == .m4, response.error == .authentication { explainRefusedProof() }
        }
        return step
    }

    /// HAP: Pair Setup M4 Error=Authentication after a controller proof that matched the logged
    /// K. The proof matched the controller's K; the accessory derived its own from its verifier and
    /// refused, so the two K differ: the setup codes differ, or one side padded SRP values the
    /// other did not (PROTOCOL §2.3).
    private mutating func explainRefusedProof() {
        guard exchange?.checks.contains(where: { $0.kind == .srpControllerProof && $0.outcome == .passed }) == true else { return }
        let stripped = [("salt", exchange?.salt, 16), ("B", exchange?.accessorySRPKey, 384)].compactMap { name, value, length in
            value.flatMap { $0.count < length ? "\(name) of \($0.count) bytes" : nil }
        }
        let cause = stripped.isEmpty
            ? "a wrong setup code on one side, or SRP values padded on one side only (PROTOCOL §2.3)"
            : "probably the padding, as the accessory sent \(stripped.joined(separator: " and ")), which the two sides "
                + "may hash differently (PROTOCOL §2.3); else a wrong setup code on one side"
        exchange?.amend(.srpControllerProof) { detail in
            let prefix = SRPChecks.controllerProofMatched
            let convention = detail.hasPrefix(prefix) ? String(detail.dropFirst(prefix.count)) : detail
            return "the controller's M3 proof matches the controller's K from the key log (\(convention)), but the "
                + "accessory answered M4 Error=Authentication: the K it derived from its own verifier differs, so the codes or "
                + "the conventions differ: \(cause)"
        }
    }

    private mutating func checkControllerProof(context: AnalysisContext) {
        guard let exchange, let a = exchange.controllerSRPKey, exchange.controllerProof != nil else { return }
        guard let k = context.keyLog.pairSetupSessionKey(forControllerPublicKey: a) else {
            self.exchange?.record(PairingCheck(.srpControllerProof, .notChecked("no PAIR_SETUP_SESSION_KEY for this A")))
            return
        }
        self.exchange?.sessionKey = k
        let (check, encoding) = SRPChecks.controllerProof(in: exchange, sessionKey: k)
        if let encoding { self.exchange?.sessionKeyEncoding = encoding }
        self.exchange?.record(check)
    }

    private func transientSessionStart() -> SessionStart {
        guard let k = exchange?.sessionKey else {
            return SessionStart(trigger: .transientPairSetup, keys: .none, source: nil, missingKeys: .noPairSetupSessionKey)
        }
        do {
            let keys = try PairSetupKeys(srpSessionKey: k, encoding: exchange?.sessionKeyEncoding ?? .full)
            return SessionStart(trigger: .transientPairSetup, keys: DirectionalSessionKeys(keys.transientSession),
                                source: .pairSetupSessionKey, missingKeys: nil)
        } catch {
            // The key log checked K's length; this is the one derivation that could still refuse it.
            return SessionStart(trigger: .transientPairSetup, keys: .none, source: nil, missingKeys: .noPairSetupSessionKey)
        }
    }

    /// Opens the M5 or M6 sub-TLV with the key derived from K, learns the identity and long-term
    /// key it carries and checks the signature over it.
    private mutating func openSetupSubTLV(_ encrypted: [UInt8]?, _ state: PairingState, context: AnalysisContext) -> PairingSubTLV? {
        guard let encrypted else { return nil }
        let isM5 = state == .m5
        guard let k = exchange?.sessionKey else {
            exchange?.record(PairingCheck(.signature(state), .notChecked("no PAIR_SETUP_SESSION_KEY")))
            return nil
        }
        let keys: PairSetupKeys
        do {
            keys = try PairSetupKeys(srpSessionKey: k, encoding: exchange?.sessionKeyEncoding ?? .full)
        } catch {
            exchange?.record(PairingCheck(.subTLVDecryption(state), .failed, detail: "no key can be derived from the logged K: \(error.reason)"))
            return nil
        }
        let step: PairingMessage = isM5 ? .pairSetupM5 : .pairSetupM6
        let opened = EncryptedSubTLV.open(
            encrypted, of: step, state: state, key: keys.encryptionKey, context: isM5 ? .pairSetupM5 : .pairSetupM6,
            keyName: "the key derived from the logged K")
        guard case .opened(let inner) = opened else {
            if case .refused(let check) = opened { exchange?.record(check) }
            return nil
        }
        guard let id = inner.identifier?.string, let ltpk = inner.publicKey, let signature = inner.signature else {
            exchange?.record(PairingCheck(.subTLVItems(state), .failed, detail: "\(step) sub-TLV lacks Identifier, PublicKey or Signature"))
            return inner
        }
        let signer = isM5 ? "controller \(id)" : "accessory \(id)"
        let who = "\(signer) (long-term key from \(isM5 ? "M5" : "M6"))"
        if isM5 {
            exchange?.controllerID = id
            exchange?.controllerLTPK = ltpk
            context.learnControllerLTPK(id, ltpk)
        } else {
            exchange?.accessoryID = id
            exchange?.accessoryLTPK = ltpk
            accessoryID = id
            context.learnAccessoryLTPK(id, ltpk)
        }
        exchange?.record(SignatureCheck.verify(state, signerKey: ltpk, who: who, signature: signature) { (key) throws(CryptoError) in
            isM5
                ? try PairingSignedInfo.pairSetupM5(controllerSignX: keys.controllerSignX, controllerPairingID: Array(id.utf8).span.bytes, controllerLongTermPublicKey: key)
                : try PairingSignedInfo.pairSetupM6(accessorySignX: keys.accessorySignX, accessoryPairingID: Array(id.utf8).span.bytes, accessoryLongTermPublicKey: key)
        })
        return inner
    }
}
