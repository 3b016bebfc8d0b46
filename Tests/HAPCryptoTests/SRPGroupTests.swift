import Testing
import HAPCrypto

@Suite struct SRPGroupTests {
    @Test func theRFC5054PrimeIs384BytesWithItsKnownEnds() {
        let prime = SRPGroup.prime
        #expect(prime.count == 384)
        #expect(hexString(prime.prefix(12)) == "ffffffffffffffffc90fdaa2")
        #expect(hexString(prime.suffix(12)) == "a93ad2caffffffffffffffff")
    }

    @Test func thePrimeHashesToTheFactSheetsProofPrefix() {
        // H(N) xor H(g) from test-vectors §3 pins every byte of N.
        let prime = SRPGroup.prime
        let primeHash = SHA512.hash(prime.span.bytes)
        let generatorHash = SHA512.hash([SRPGroup.generator].span.bytes)
        #expect(zip(primeHash, generatorHash).map { $0 ^ $1 } == hex(HAPVectors.srpPrimeHashXorGeneratorHash))
    }

    @Test func aSaltMustBe16Bytes() {
        let good = SRPGroup.check(salt: hex(HAPVectors.srpSalt).span.bytes)
        let short = SRPGroup.check(salt: [UInt8](repeating: 0, count: 15).span.bytes)
        #expect(good == nil)
        #expect(short == .saltLength(byteCount: 15))
    }

    @Test func publicValuesFromTheVectorsPassTheChecks() {
        let a = SRPGroup.check(publicKey: hex(HAPVectors.srpA).span.bytes, of: .controller)
        let b = SRPGroup.check(publicKey: hex(HAPVectors.srpB).span.bytes, of: .accessory)
        let minimalB = SRPGroup.check(publicKey: Array(hex(HAPVectors.srpB).dropFirst()).span.bytes, of: .accessory)
        #expect(a == nil)
        #expect(b == nil)
        #expect(minimalB == nil)
    }

    @Test func zeroAndNAreZeroModuloN() {
        let zero = SRPGroup.check(publicKey: [UInt8](repeating: 0, count: 384).span.bytes, of: .controller)
        let empty = SRPGroup.check(publicKey: [UInt8]().span.bytes, of: .controller)
        let primeBytes = SRPGroup.prime
        let prime = SRPGroup.check(publicKey: primeBytes.span.bytes, of: .accessory)
        #expect(zero == .publicKeyZeroModuloPrime(.controller))
        #expect(empty == .publicKeyZeroModuloPrime(.controller))
        #expect(prime == .publicKeyZeroModuloPrime(.accessory))
        #expect(prime?.description == "the accessory's SRP public value B is 0 mod N")
    }

    @Test func valuesJustBelowAndAboveNAreToldApart() {
        var belowPrime = SRPGroup.prime
        belowPrime[383] = 0xFE
        var abovePrime = SRPGroup.prime
        abovePrime[200] &+= 1
        let below = SRPGroup.check(publicKey: belowPrime.span.bytes, of: .controller)
        let above = SRPGroup.check(publicKey: abovePrime.span.bytes, of: .controller)
        let allOnes = SRPGroup.check(publicKey: [UInt8](repeating: 0xFF, count: 384).span.bytes, of: .accessory)
        #expect(below == nil)
        #expect(above == .publicKeyNotReduced(.controller))
        #expect(allOnes == .publicKeyNotReduced(.accessory))
    }

    @Test func aPublicValueLongerThanNIsTooLongEvenWithLeadingZeros() {
        let padded = [0] + hex(HAPVectors.srpA)
        let problem = SRPGroup.check(publicKey: padded.span.bytes, of: .controller)
        #expect(problem == .publicKeyTooLong(.controller, byteCount: 385))
    }

    @Test func kFromTheFactSheetsSIsTheSameUnderBothEncodings() throws {
        let minimal = try SRPGroup.sessionKey(premasterSecret: secret(HAPVectors.srpS), encoding: .minimal)
        let padded = try SRPGroup.sessionKey(premasterSecret: secret(HAPVectors.srpS), encoding: .padded)
        #expect(minimal.revealedBytes() == hex(HAPVectors.srpK))
        #expect(padded == minimal)
    }

    @Test func kFromAnSWithALeadingZeroDependsOnTheEncoding() throws {
        // test-vectors §4: the two camps of PROTOCOL §2.3 derive different keys.
        let minimal = try SRPGroup.sessionKey(premasterSecret: secret(HAPVectors.srpLeadingZeroS), encoding: .minimal)
        let padded = try SRPGroup.sessionKey(premasterSecret: secret(HAPVectors.srpLeadingZeroS), encoding: .padded)
        #expect(minimal.revealedBytes() == hex(HAPVectors.srpKFromStrippedS))
        #expect(padded.revealedBytes() == hex(HAPVectors.srpKFromPaddedS))
        let unpadded = try SRPGroup.sessionKey(premasterSecret: SecretBytes(Array(hex(HAPVectors.srpLeadingZeroS).dropFirst())), encoding: .padded)
        #expect(unpadded == padded)
    }

    @Test func anSLongerThanNIsRefused() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try SRPGroup.sessionKey(premasterSecret: SecretBytes([UInt8](repeating: 1, count: 385)), encoding: .minimal)
        }
    }

    @Test func theHashOnlyIntermediatesOfTheFactSheetFollowFromTheGroup() {
        // x = H(s ‖ H(I ‖ ":" ‖ P)), k = H(N ‖ PAD(g)), u = H(PAD(A) ‖ PAD(B)): no big numbers
        // needed, and they pin the username, the prime and the padding the vectors assume.
        var inner = SHA512()
        inner.update(ascii(SRPGroup.username + ":111-22-333").span.bytes)
        let innerHash = inner.finalize()
        var x = SHA512()
        x.update(hex(HAPVectors.srpSalt).span.bytes)
        x.update(innerHash.span.bytes)
        #expect(x.finalize() == hex(HAPVectors.srpX))

        let prime = SRPGroup.prime
        var k = SHA512()
        k.update(prime.span.bytes)
        k.update(([UInt8](repeating: 0, count: 383) + [SRPGroup.generator]).span.bytes)
        #expect(k.finalize() == hex(HAPVectors.srpMultiplier))

        var u = SHA512()
        u.update(hex(HAPVectors.srpA).span.bytes)
        u.update(hex(HAPVectors.srpB).span.bytes)
        #expect(u.finalize() == hex(HAPVectors.srpU))
    }
}
