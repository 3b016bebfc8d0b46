/// The two parties of HAP Pair Setup, for naming SRP values.
public enum SRPParty: Sendable, Hashable, CustomStringConvertible {
    /// Sends A in M3 and the proof M1.
    case controller
    /// Sends B and the salt in M2 and the proof M2.
    case accessory

    /// The SRP name of the party's public value.
    public var publicValueName: String { self == .controller ? "A" : "B" }
    public var description: String { self == .controller ? "controller" : "accessory" }
}

/// A rule of HAP's SRP broken by a value as sent; each one makes a correct implementation
/// abort Pair Setup.
public enum SRPParameterProblem: Sendable, Hashable, CustomStringConvertible {
    /// The salt is not 16 bytes long.
    case saltLength(byteCount: Int)
    /// A or B is longer than N (384 bytes).
    case publicKeyTooLong(SRPParty, byteCount: Int)
    /// A or B ≡ 0 mod N (equal to 0 or N, or empty): it would force the shared secret.
    case publicKeyZeroModuloPrime(SRPParty)
    /// A or B lies above N: not reduced mod N.
    case publicKeyNotReduced(SRPParty)

    public var description: String {
        switch self {
        case .saltLength(let count):
            "the SRP salt is \(count) bytes, not \(SRPGroup.saltByteCount)"
        case .publicKeyTooLong(let party, let count):
            "the \(party)'s SRP public value \(party.publicValueName) is \(count) bytes, longer than N (\(SRPGroup.primeByteCount))"
        case .publicKeyZeroModuloPrime(let party):
            "the \(party)'s SRP public value \(party.publicValueName) is 0 mod N"
        case .publicKeyNotReduced(let party):
            "the \(party)'s SRP public value \(party.publicValueName) is larger than N"
        }
    }
}
