import CSodium

/// The SRP values of one HAP Pair Setup as observed, with the session key K from a key log:
/// enough to recompute and check both proofs without big-number arithmetic (PROTOCOL §2.2).
///
/// Implementations disagree on how salt, A, B and K enter the hashes (PROTOCOL §2.3, §8 #3),
/// so the `match…` functions try every convention in use and report the one that matched:
/// a proof that matches only under an unusual convention explains an interoperability
/// failure, and one that matches under none means a wrong K or a broken implementation.
public struct SRPTranscript: Sendable, CustomStringConvertible {
    /// The salt s, exactly as sent in M2.
    public let salt: [UInt8]
    /// A, exactly as sent in M3.
    public let controllerPublicKey: [UInt8]
    /// B, exactly as sent in M2.
    public let accessoryPublicKey: [UInt8]
    /// K = H(S).
    public let sessionKey: SecretBytes

    /// - Throws: `CryptoError.invalidSize` unless K is 64 bytes long. Values that break
    ///   HAP's rules are kept as sent and reported by `problems`.
    public init(salt: RawSpan, controllerPublicKey: RawSpan, accessoryPublicKey: RawSpan, sessionKey: SecretBytes) throws(CryptoError) {
        try CryptoError.requireSize(sessionKey.count, SRPGroup.sessionKeyByteCount, of: "the SRP session key K")
        self.salt = [UInt8](salt)
        self.controllerPublicKey = [UInt8](controllerPublicKey)
        self.accessoryPublicKey = [UInt8](accessoryPublicKey)
        self.sessionKey = sessionKey
    }

    /// The HAP rules the salt, A and B break, in that order.
    public var problems: [SRPParameterProblem] {
        [
            SRPGroup.check(salt: salt.span.bytes),
            SRPGroup.check(publicKey: controllerPublicKey.span.bytes, of: .controller),
            SRPGroup.check(publicKey: accessoryPublicKey.span.bytes, of: .accessory),
        ].compactMap { $0 }
    }

    /// The controller proof M1 = H(H(N) xor H(g) ‖ H(I) ‖ s ‖ A ‖ B ‖ K) under `convention`.
    // HAP: Pair Setup M3
    public func controllerProof(convention: SRPControllerProofConvention = .asSent) -> [UInt8] {
        var hasher = SRPGroup.controllerProofPrefix
        hasher.update(convention.salt.apply(to: salt, paddedLength: SRPGroup.saltByteCount).span.bytes)
        hasher.update(convention.controllerPublicKey.apply(to: controllerPublicKey, paddedLength: SRPGroup.primeByteCount).span.bytes)
        hasher.update(convention.accessoryPublicKey.apply(to: accessoryPublicKey, paddedLength: SRPGroup.primeByteCount).span.bytes)
        convention.sessionKey.apply(to: sessionKey).withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// The accessory proof M2 = H(A ‖ M1 ‖ K) under `convention`, over M1 as sent.
    // HAP: Pair Setup M4
    public func accessoryProof(controllerProof: RawSpan, convention: SRPAccessoryProofConvention = .asSent) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(convention.controllerPublicKey.apply(to: controllerPublicKey, paddedLength: SRPGroup.primeByteCount).span.bytes)
        hasher.update(controllerProof)
        convention.sessionKey.apply(to: sessionKey).withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// The first convention, as-sent encodings first, under which `observed` is the
    /// controller proof; nil when none gives it.
    public func matchControllerProof(_ observed: RawSpan) -> SRPControllerProofConvention? {
        guard observed.byteCount == SHA512.byteCount else { return nil }
        let salts = Self.variants(of: salt, paddedLength: SRPGroup.saltByteCount)
        let controllerKeys = Self.variants(of: controllerPublicKey, paddedLength: SRPGroup.primeByteCount)
        let accessoryKeys = Self.variants(of: accessoryPublicKey, paddedLength: SRPGroup.primeByteCount)
        let sessionKeys = sessionKeyVariants
        // Hash states are values: each common prefix is hashed once and copied.
        for (saltEncoding, saltBytes) in salts {
            var afterSalt = SRPGroup.controllerProofPrefix
            afterSalt.update(saltBytes.span.bytes)
            for (controllerEncoding, controllerBytes) in controllerKeys {
                var afterA = afterSalt
                afterA.update(controllerBytes.span.bytes)
                for (accessoryEncoding, accessoryBytes) in accessoryKeys {
                    var afterB = afterA
                    afterB.update(accessoryBytes.span.bytes)
                    for (keyEncoding, key) in sessionKeys {
                        var hasher = afterB
                        key.withUnsafeBytes { hasher.update($0) }
                        if Self.isEqual(hasher.finalize(), observed) {
                            return SRPControllerProofConvention(
                                salt: saltEncoding, controllerPublicKey: controllerEncoding,
                                accessoryPublicKey: accessoryEncoding, sessionKey: keyEncoding)
                        }
                    }
                }
            }
        }
        return nil
    }

    /// The first convention, as-sent encodings first, under which `observed` is the
    /// accessory proof for the controller proof M1 as sent; nil when none gives it.
    public func matchAccessoryProof(_ observed: RawSpan, controllerProof: RawSpan) -> SRPAccessoryProofConvention? {
        guard observed.byteCount == SHA512.byteCount else { return nil }
        for (controllerEncoding, controllerBytes) in Self.variants(of: controllerPublicKey, paddedLength: SRPGroup.primeByteCount) {
            var afterM1 = SHA512()
            afterM1.update(controllerBytes.span.bytes)
            afterM1.update(controllerProof)
            for (keyEncoding, key) in sessionKeyVariants {
                var hasher = afterM1
                key.withUnsafeBytes { hasher.update($0) }
                if Self.isEqual(hasher.finalize(), observed) {
                    return SRPAccessoryProofConvention(controllerPublicKey: controllerEncoding, sessionKey: keyEncoding)
                }
            }
        }
        return nil
    }

    public var description: String {
        "SRPTranscript(salt \(salt.count) bytes, A \(controllerPublicKey.count) bytes, B \(accessoryPublicKey.count) bytes, K \(sessionKey))"
    }

    /// The distinct byte strings a value takes under each encoding, in `allCases` order:
    /// a value that reads the same under two encodings is hashed once and reported under
    /// the first.
    private static func variants(of value: [UInt8], paddedLength: Int) -> [(SRPValueEncoding, [UInt8])] {
        var variants: [(SRPValueEncoding, [UInt8])] = []
        for encoding in SRPValueEncoding.allCases {
            let bytes = encoding.apply(to: value, paddedLength: paddedLength)
            if !variants.contains(where: { $0.1 == bytes }) {
                variants.append((encoding, bytes))
            }
        }
        return variants
    }

    private var sessionKeyVariants: [(SRPSessionKeyEncoding, SecretBytes)] {
        let stripped = sessionKey.strippingLeadingZeros()
        return stripped.count == sessionKey.count ? [(.full, sessionKey)] : [(.full, sessionKey), (.leadingZerosStripped, stripped)]
    }

    private static func isEqual(_ digest: [UInt8], _ observed: RawSpan) -> Bool {
        digest.withUnsafeBytes { digest in
            observed.withUnsafeBytes { observed in
                sodium_memcmp(digest.baseAddress, observed.baseAddress, digest.count) == 0
            }
        }
    }
}
