import HAPCrypto
import HAPEvents
import TLV8

/// The SRP judgements of pair-setup, made once where the values are read: HAP's rules on the
/// salt, A and B as sent, and both proofs against the session key K from the key log.
enum SRPChecks {
    static func problems(salt: [UInt8]) -> [SRPValueProblem] {
        SRPGroup.check(salt: salt.span.bytes).map { [SRPValueProblem($0)] } ?? []
    }

    static func problems(publicValue: [UInt8], of party: HAPParty) -> [SRPValueProblem] {
        SRPGroup.check(publicKey: publicValue.span.bytes, of: party == .controller ? .controller : .accessory)
            .map { [SRPValueProblem($0)] } ?? []
    }

    /// Why M2 gives no SRP transcript, when it does not: its salt or B is missing. A value of
    /// the wrong length is kept as sent (the M2 decoder keeps every length, and the problem is
    /// reported on M2), so the proofs are still checked against what the controller received.
    static func missingValues(of m2: PairSetupMessage.M2) -> String? {
        var missing: [String] = []
        for (value, name) in [(m2.salt, "salt"), (m2.publicKey, "B")] where value == nil {
            missing.append("M2 has no \(name)")
        }
        return missing.isEmpty ? nil : missing.joined(separator: " and ")
    }

    /// How a matching controller proof's detail starts; the convention follows.
    static let controllerProofMatched = "M3 proof matches K, "

    /// HAP: Pair Setup M3 — the controller's proof, with the convention (padding, K encoding)
    /// under which it matched.
    static func controllerProof(in exchange: PairingExchangeRecord, sessionKey k: SecretBytes) -> (PairingCheck, SRPSessionKeyEncoding?) {
        guard let proof = exchange.controllerProof, let a = exchange.controllerSRPKey else {
            return (PairingCheck(.srpControllerProof, .notChecked("M3 has no A or no proof")), nil)
        }
        guard let transcript = transcript(of: exchange, a: a, sessionKey: k) else {
            return (PairingCheck(.srpControllerProof, .notChecked(exchange.accessorySRPValuesMissing ?? "no M2 in the exchange")), nil)
        }
        if let convention = transcript.matchControllerProof(proof.span.bytes) {
            return (PairingCheck(.srpControllerProof, .passed, detail: controllerProofMatched + "\(convention)"), convention.sessionKey)
        }
        return (PairingCheck(.srpControllerProof, .failed, detail: "M3 proof does not match the logged K under any padding convention"), nil)
    }

    /// HAP: Pair Setup M4 — the accessory's proof; nil when no K is known (the controller's proof
    /// check already said so).
    static func accessoryProof(_ proof: [UInt8], in exchange: PairingExchangeRecord) -> PairingCheck? {
        guard let k = exchange.sessionKey, let a = exchange.controllerSRPKey, let controllerProof = exchange.controllerProof,
              let transcript = transcript(of: exchange, a: a, sessionKey: k) else { return nil }
        if let convention = transcript.matchAccessoryProof(proof.span.bytes, controllerProof: controllerProof.span.bytes) {
            return PairingCheck(.srpAccessoryProof, .passed, detail: "M4 proof matches K, \(convention)")
        }
        return PairingCheck(.srpAccessoryProof, .failed, detail: "M4 proof does not match the logged K")
    }

    /// The transcript of M2 and M3; nil when M2's salt or B is missing. K's length was checked
    /// when the key log was read, which is all the transcript can refuse.
    private static func transcript(of exchange: PairingExchangeRecord, a: [UInt8], sessionKey k: SecretBytes) -> SRPTranscript? {
        guard let salt = exchange.salt, let b = exchange.accessorySRPKey else { return nil }
        return try? SRPTranscript(salt: salt.span.bytes, controllerPublicKey: a.span.bytes, accessoryPublicKey: b.span.bytes, sessionKey: k)
    }
}

extension SRPValueProblem {
    /// The vocabulary's form of what HAPCrypto found.
    init(_ problem: SRPParameterProblem) {
        func party(_ party: SRPParty) -> HAPParty { party == .controller ? .controller : .accessory }
        switch problem {
        case .saltLength(let count): self = .saltLength(byteCount: count)
        case .publicKeyTooLong(let which, let count): self = .publicValueTooLong(party(which), byteCount: count)
        case .publicKeyZeroModuloPrime(let which): self = .publicValueZeroModuloPrime(party(which))
        case .publicKeyNotReduced(let which): self = .publicValueNotReduced(party(which))
        }
    }
}
