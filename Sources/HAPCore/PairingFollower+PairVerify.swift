import HAPCrypto
import HAPEvents
import Packets
import TLV8
import WireParsing

// HAP: Pair Verify (PROTOCOL §3): an X25519 exchange in M1 and M2, signed identities in the
// encrypted M2 and M3, and the session keys after M4.
extension PairingFollower {
    mutating func pairVerifyStep(_ message: PairVerifyMessage, context: AnalysisContext) -> StepResult {
        var step = StepResult()
        switch message {
        case .m1(let m1):
            exchange?.controllerEphemeralKey = m1.publicKey
            // This pair-verify's session is in the capture, so no connection joined mid-way is it.
            if let key = m1.publicKey { context.keyLogSessions.claim(key) }
            exchange?.method = m1.method
        case .m2(let m2):
            exchange?.accessoryEphemeralKey = m2.publicKey
            if let controllerKey = exchange?.controllerEphemeralKey {
                exchange?.secrets = SessionKeyResolver.resolve(keyLog: context.keyLog, controllerKey: controllerKey, accessoryKey: m2.publicKey)
            }
            step.decrypted = openVerifySubTLV(m2.encryptedData, .m2, context: context)
        case .m3(let m3):
            step.decrypted = openVerifySubTLV(m3.encryptedData, .m3, context: context)
        case .m4:
            exchange?.outcome = .succeeded
            step.sessionStart = verifiedSessionStart()
        case .error(let response):
            exchange?.outcome = .failed(state: response.state, error: response.error, retryDelay: response.retryDelay)
        }
        return step
    }

    private func verifiedSessionStart() -> SessionStart {
        if let secrets = exchange?.secrets {
            return SessionStart(trigger: .pairVerify, keys: secrets.session, source: secrets.source, missingKeys: nil)
        }
        return SessionStart(trigger: .pairVerify, keys: .none, source: nil,
                            missingKeys: .noKeyLogEntry(controllerEphemeralKey: exchange?.controllerEphemeralKey))
    }

    /// Opens M2's or M3's sub-TLV with the pair-verify key, learns the identity in it and checks
    /// its signature with the signer's long-term key (from the key log or an earlier pair-setup).
    private mutating func openVerifySubTLV(_ encrypted: [UInt8]?, _ state: PairingState, context: AnalysisContext) -> PairingSubTLV? {
        guard let encrypted else { return nil }
        guard let keys = exchange?.secrets?.pairVerifyKeys else {
            let reason = exchange?.secrets == nil ? "no key-log entry for this pair-verify" : "the key log has session keys but no shared secret"
            exchange?.record(PairingCheck(.signature(state), .notChecked(reason)))
            return nil
        }
        let isM2 = state == .m2
        let step: PairingMessage = isM2 ? .pairVerifyM2 : .pairVerifyM3
        let opened = EncryptedSubTLV.open(
            encrypted, of: step, state: state, key: keys.encryptionKey, context: isM2 ? .pairVerifyM2 : .pairVerifyM3,
            keyName: "the logged shared secret")
        guard case .opened(let inner) = opened else {
            if case .refused(let check) = opened { exchange?.record(check) }
            return nil
        }
        guard let id = inner.identifier?.string, let signature = inner.signature,
              let controllerKey = exchange?.controllerEphemeralKey, let accessoryKey = exchange?.accessoryEphemeralKey
        else {
            exchange?.record(PairingCheck(.subTLVItems(state), .failed, detail: "\(step) sub-TLV lacks Identifier or Signature"))
            return inner
        }
        let idBytes = Array(id.utf8)
        if isM2 {
            exchange?.accessoryID = id
            accessoryID = id
            exchange?.record(SignatureCheck.verify(state, signerKey: context.accessoryLTPK(id), who: "accessory \(id)", signature: signature) {
                (_) throws(CryptoError) in
                try PairingSignedInfo.pairVerifyM2(
                    accessoryCurvePublicKey: accessoryKey.span.bytes, accessoryPairingID: idBytes.span.bytes,
                    controllerCurvePublicKey: controllerKey.span.bytes)
            })
        } else {
            exchange?.controllerID = id
            verifiedControllerID = id
            exchange?.record(SignatureCheck.verify(state, signerKey: context.controllerLTPK(id), who: "controller \(id)", signature: signature) {
                (_) throws(CryptoError) in
                try PairingSignedInfo.pairVerifyM3(
                    controllerCurvePublicKey: controllerKey.span.bytes, controllerPairingID: idBytes.span.bytes,
                    accessoryCurvePublicKey: accessoryKey.span.bytes)
            })
        }
        return inner
    }
}
