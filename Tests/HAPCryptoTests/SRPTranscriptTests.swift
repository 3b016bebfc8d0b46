import Testing
import HAPCrypto

@Suite struct SRPTranscriptTests {
    private func transcript(salt: [UInt8] = hex(HAPVectors.srpSalt), a: [UInt8] = hex(HAPVectors.srpA), b: [UInt8] = hex(HAPVectors.srpB), k: String = HAPVectors.srpK) throws -> SRPTranscript {
        try SRPTranscript(salt: salt.span.bytes, controllerPublicKey: a.span.bytes, accessoryPublicKey: b.span.bytes, sessionKey: secret(k))
    }

    @Test func computesTheFactSheetsControllerAndAccessoryProofs() throws {
        let srp = try transcript()
        let m1 = srp.controllerProof()
        #expect(m1 == hex(HAPVectors.srpM1))
        #expect(srp.accessoryProof(controllerProof: m1.span.bytes) == hex(HAPVectors.srpM2))
        #expect(srp.problems.isEmpty)
    }

    @Test func verifiesTheFactSheetsProofsAsSent() throws {
        let srp = try transcript()
        let m1 = hex(HAPVectors.srpM1)
        let controllerMatch = srp.matchControllerProof(m1.span.bytes)
        let accessoryMatch = srp.matchAccessoryProof(hex(HAPVectors.srpM2).span.bytes, controllerProof: m1.span.bytes)
        #expect(controllerMatch == .asSent)
        #expect(accessoryMatch == .asSent)
    }

    @Test func eachKConventionOfTheLeadingZeroSVectorGivesItsOwnProof() throws {
        // test-vectors §4: K = H(stripped S) and K = H(PAD(S)) differ, and so do the proofs.
        let stripped = try transcript(a: hex(HAPVectors.srpLeadingZeroA), k: HAPVectors.srpKFromStrippedS)
        let padded = try transcript(a: hex(HAPVectors.srpLeadingZeroA), k: HAPVectors.srpKFromPaddedS)
        #expect(stripped.controllerProof() == hex(HAPVectors.srpM1FromStrippedS))
        #expect(padded.controllerProof() == hex(HAPVectors.srpM1FromPaddedS))
    }

    @Test func aProofMadeWithTheOtherCampsKMatchesNoConvention() throws {
        // The interoperability failure of PROTOCOL §2.3: a controller hashing PAD(S) against
        // an accessory that logged the stripped-S K.
        let accessoryView = try transcript(a: hex(HAPVectors.srpLeadingZeroA), k: HAPVectors.srpKFromStrippedS)
        let match = accessoryView.matchControllerProof(hex(HAPVectors.srpM1FromPaddedS).span.bytes)
        #expect(match == nil)
    }

    @Test func aShortBHashedPaddedIsMatchedAsPadded() throws {
        let srp = try transcript(b: Array(hex(HAPVectors.srpB).dropFirst()))
        let match = srp.matchControllerProof(hex(GeneratedVectors.srpM1ShortBPadded).span.bytes)
        #expect(match == SRPControllerProofConvention(salt: .asSent, controllerPublicKey: .asSent, accessoryPublicKey: .padded, sessionKey: .full))
        let convention = try #require(match)
        #expect(srp.controllerProof(convention: convention) == hex(GeneratedVectors.srpM1ShortBPadded))
        #expect(srp.controllerProof() != hex(GeneratedVectors.srpM1ShortBPadded))
    }

    @Test func aZeroPrefixedBHashedMinimalIsMatchedAsMinimal() throws {
        let srp = try transcript(b: [0] + hex(HAPVectors.srpB).dropFirst())
        let match = srp.matchControllerProof(hex(GeneratedVectors.srpM1ZeroPrefixedBMinimal).span.bytes)
        #expect(match?.accessoryPublicKey == .minimal)
        #expect(match?.description == "salt as sent, A as sent, B minimal, 64-byte K")
    }

    @Test func aZeroPrefixedSaltHashedMinimalIsMatchedAsMinimal() throws {
        let srp = try transcript(salt: [0] + hex(HAPVectors.srpSalt).dropFirst())
        let match = srp.matchControllerProof(hex(GeneratedVectors.srpM1ZeroPrefixedSaltMinimal).span.bytes)
        #expect(match?.salt == .minimal)
    }

    @Test func aKWithLeadingZerosUsedStrippedIsMatchedInBothProofs() throws {
        let srp = try transcript(k: GeneratedVectors.leadingZeroK)
        let m1 = hex(GeneratedVectors.srpM1LeadingZeroKStripped)
        let controllerMatch = srp.matchControllerProof(m1.span.bytes)
        let accessoryMatch = srp.matchAccessoryProof(hex(GeneratedVectors.srpM2LeadingZeroKStripped).span.bytes, controllerProof: m1.span.bytes)
        #expect(controllerMatch?.sessionKey == .leadingZerosStripped)
        #expect(accessoryMatch == SRPAccessoryProofConvention(controllerPublicKey: .asSent, sessionKey: .leadingZerosStripped))
    }

    @Test func anADKStyleAccessoryProofOverPaddedAIsMatched() throws {
        // ADK strips A inside M1 but hashes PAD(A) into M2 (PROTOCOL §2.3).
        let srp = try transcript(a: Array(hex(HAPVectors.srpA).dropFirst()))
        let m1 = hex(GeneratedVectors.srpM1ShortA)
        let controllerMatch = srp.matchControllerProof(m1.span.bytes)
        let accessoryMatch = srp.matchAccessoryProof(hex(GeneratedVectors.srpM2ShortAPadded).span.bytes, controllerProof: m1.span.bytes)
        #expect(controllerMatch == .asSent)
        #expect(accessoryMatch?.controllerPublicKey == .padded)
    }

    @Test func aWrongOrMisSizedProofMatchesNothing() throws {
        let srp = try transcript()
        var wrong = hex(HAPVectors.srpM1)
        wrong[0] ^= 1
        let wrongMatch = srp.matchControllerProof(wrong.span.bytes)
        let shortMatch = srp.matchControllerProof(Array(hex(HAPVectors.srpM1).prefix(63)).span.bytes)
        let accessoryMatch = srp.matchAccessoryProof(hex(HAPVectors.srpM1).span.bytes, controllerProof: hex(HAPVectors.srpM1).span.bytes)
        #expect(wrongMatch == nil)
        #expect(shortMatch == nil)
        #expect(accessoryMatch == nil)
    }

    @Test func brokenParametersAreReportedNotRefused() throws {
        let srp = try transcript(salt: [1, 2, 3], a: SRPGroup.prime, b: [UInt8](repeating: 0, count: 384))
        #expect(srp.problems == [.saltLength(byteCount: 3), .publicKeyZeroModuloPrime(.controller), .publicKeyZeroModuloPrime(.accessory)])
        #expect(srp.controllerProof().count == 64)
    }

    @Test func kMustBe64Bytes() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try SRPTranscript(salt: [UInt8]().span.bytes, controllerPublicKey: [UInt8]().span.bytes, accessoryPublicKey: [UInt8]().span.bytes, sessionKey: SecretBytes([1]))
        }
    }

    @Test func printingHidesK() throws {
        let description = try transcript().description
        #expect(!description.contains("c85cbc9a"))
        #expect(description == "SRPTranscript(salt 16 bytes, A 384 bytes, B 384 bytes, K <secret, 64 bytes>)")
    }
}
