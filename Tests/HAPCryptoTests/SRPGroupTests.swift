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
}
