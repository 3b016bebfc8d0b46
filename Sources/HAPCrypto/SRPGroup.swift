import WireParsing

/// The SRP-6a parameters of HAP Pair Setup (PROTOCOL §2.2): the RFC 5054 3072-bit group,
/// generator 5, SHA-512, username `Pair-Setup`.
///
/// hapscope never does big-number arithmetic: an observer has no password-derived secret,
/// so the checks it can make (proofs from a logged K, public values ≡ 0 mod N, lengths) need
/// only hashes and byte comparisons.
public enum SRPGroup {
    /// N is 3072 bits; padded values (`PAD(x)`) are this long.
    public static let primeByteCount = 384
    /// HAP sends a 16-byte salt.
    public static let saltByteCount = 16
    /// K = H(S) is one SHA-512 digest.
    public static let sessionKeyByteCount = 64
    /// g.
    public static let generator: UInt8 = 5
    /// I, the SRP username of every HAP Pair Setup.
    public static let username = "Pair-Setup"

    /// N, big-endian (RFC 5054 Appendix A, 3072-bit group).
    public static let prime: [UInt8] = Hex.decode(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
            + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
            + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
            + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
            + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
            + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF")!

    /// The first 64 bytes every controller proof hashes: H(N) xor H(g), with N as 384 bytes
    /// and g as the single byte `05`.
    static let primeHashXorGeneratorHash: [UInt8] = {
        let primeHash = SHA512.hash(prime.span.bytes)
        let generatorHash = SHA512.hash([generator].span.bytes)
        return zip(primeHash, generatorHash).map { $0 ^ $1 }
    }()

    /// The hash state after H(N) xor H(g) ‖ H(I), the prefix of every controller proof.
    static let controllerProofPrefix: SHA512 = {
        var hasher = SHA512()
        hasher.update(primeHashXorGeneratorHash.span.bytes)
        hasher.update(SHA512.hash(Array(username.utf8).span.bytes).span.bytes)
        return hasher
    }()

    /// The session key K = H(S), for key logs that record the premaster secret S rather
    /// than K. Implementations hash S in two ways (PROTOCOL §2.3), and when S starts with a
    /// zero byte the two give different keys.
    ///
    /// - Throws: `CryptoError.invalidSize` when S is longer than N (384 bytes).
    public static func sessionKey(premasterSecret: SecretBytes, encoding: SRPPremasterSecretEncoding) throws(CryptoError) -> SecretBytes {
        guard premasterSecret.count <= primeByteCount else {
            throw CryptoError(.invalidSize, "the SRP premaster secret S must be at most \(primeByteCount) bytes, not \(premasterSecret.count)")
        }
        var hasher = SHA512()
        premasterSecret.withUnsafeBytes { premasterSecret in
            let significant = UnsafeRawBufferPointer(rebasing: premasterSecret.drop { $0 == 0 })
            if encoding == .padded {
                hasher.update([UInt8](repeating: 0, count: primeByteCount - significant.count).span.bytes)
            }
            hasher.update(significant)
        }
        return SecretBytes(byteCount: SHA512.byteCount) { hasher.finalize(into: $0) }
    }

    /// What is wrong with a salt as sent in Pair Setup M2, if anything.
    public static func check(salt: RawSpan) -> SRPParameterProblem? {
        salt.byteCount == saltByteCount ? nil : .saltLength(byteCount: salt.byteCount)
    }

    /// What is wrong with a public value (A from M3, B from M2) as sent, if anything.
    ///
    /// A value of at most 384 bytes is below 2^3072 < 2N, so it is ≡ 0 mod N exactly when it
    /// equals 0 or N; the receiver must abort then (RFC 5054 §2.5.3 for B, §2.5.4 for A;
    /// ADK and fast-srp do).
    /// A value above N was never reduced mod N, which fast-srp rejects as well.
    public static func check(publicKey value: RawSpan, of party: SRPParty) -> SRPParameterProblem? {
        guard value.byteCount <= primeByteCount else {
            return .publicKeyTooLong(party, byteCount: value.byteCount)
        }
        return value.withUnsafeBytes { value in
            let significant = value.drop { $0 == 0 }
            guard !significant.isEmpty else { return .publicKeyZeroModuloPrime(party) }
            guard significant.count == primeByteCount else { return nil }
            // Equal lengths: big-endian byte order is numeric order.
            if significant.elementsEqual(prime) { return .publicKeyZeroModuloPrime(party) }
            if prime.lexicographicallyPrecedes(significant) { return .publicKeyNotReduced(party) }
            return nil
        }
    }
}
