/// A rule of HAP's SRP (3072-bit group, RFC 5054) broken by a value as sent; each one makes a
/// correct implementation abort pair-setup. The analysis finds them where it reads the values.
public enum SRPValueProblem: Sendable, Hashable, CustomStringConvertible {
    /// The salt is not 16 bytes long.
    case saltLength(byteCount: Int)
    /// A or B is longer than N (384 bytes).
    case publicValueTooLong(HAPParty, byteCount: Int)
    /// A or B ≡ 0 mod N (equal to 0 or N, or empty): it would force the shared secret.
    case publicValueZeroModuloPrime(HAPParty)
    /// A or B lies above N: not reduced mod N.
    case publicValueNotReduced(HAPParty)

    /// The SRP name of a party's public value: A for the controller, B for the accessory.
    public static func publicValueName(of party: HAPParty) -> String { party == .controller ? "A" : "B" }

    public var description: String {
        switch self {
        case .saltLength(let count):
            "the SRP salt is \(count) bytes, not 16"
        case .publicValueTooLong(let party, let count):
            "the \(party)'s SRP public value \(Self.publicValueName(of: party)) is \(count) bytes, longer than N (384)"
        case .publicValueZeroModuloPrime(let party):
            "the \(party)'s SRP public value \(Self.publicValueName(of: party)) is 0 mod N"
        case .publicValueNotReduced(let party):
            "the \(party)'s SRP public value \(Self.publicValueName(of: party)) is larger than N"
        }
    }
}
