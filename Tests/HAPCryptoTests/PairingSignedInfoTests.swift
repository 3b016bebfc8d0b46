import Testing
import HAPCrypto

@Suite struct PairingSignedInfoTests {
    let accessoryKey: Ed25519.SigningKey
    let controllerKey: Ed25519.SigningKey
    let pairSetupKeys: PairSetupKeys

    init() throws {
        accessoryKey = try Ed25519.SigningKey(seed: secret(GeneratedVectors.accessorySeed))
        controllerKey = try Ed25519.SigningKey(seed: secret(GeneratedVectors.controllerSeed))
        pairSetupKeys = try PairSetupKeys(srpSessionKey: secret(HAPVectors.srpK))
    }

    private func pairVerifyM2() throws -> PairingSignedInfo {
        try .pairVerifyM2(
            accessoryCurvePublicKey: hex(HAPVectors.accessoryPublicKey).span.bytes,
            accessoryPairingID: ascii(GeneratedVectors.accessoryPairingID).span.bytes,
            controllerCurvePublicKey: hex(HAPVectors.controllerPublicKey).span.bytes)
    }

    private func pairSetupM6(longTermPublicKey: Ed25519.PublicKey) throws -> PairingSignedInfo {
        try .pairSetupM6(
            accessorySignX: pairSetupKeys.accessorySignX,
            accessoryPairingID: ascii(GeneratedVectors.accessoryPairingID).span.bytes,
            accessoryLongTermPublicKey: longTermPublicKey)
    }

    @Test func theSeedsGiveTheExpectedLongTermKeys() {
        #expect(accessoryKey.publicKey.bytes == hex(GeneratedVectors.accessoryLongTermPublicKey))
        #expect(controllerKey.publicKey.bytes == hex(GeneratedVectors.controllerLongTermPublicKey))
    }

    @Test func pairVerifyM2IsAccessoryKeyThenAccessoryIDThenControllerKey() throws {
        let info = try pairVerifyM2()
        #expect(info.signature(signedBy: accessoryKey) == hex(GeneratedVectors.pairVerifyM2Signature))
        try info.verify(signature: hex(GeneratedVectors.pairVerifyM2Signature).span.bytes, signer: accessoryKey.publicKey)
    }

    @Test func pairVerifyM3IsControllerKeyThenControllerIDThenAccessoryKey() throws {
        let info = try PairingSignedInfo.pairVerifyM3(
            controllerCurvePublicKey: hex(HAPVectors.controllerPublicKey).span.bytes,
            controllerPairingID: ascii(GeneratedVectors.controllerPairingID).span.bytes,
            accessoryCurvePublicKey: hex(HAPVectors.accessoryPublicKey).span.bytes)
        #expect(info.signature(signedBy: controllerKey) == hex(GeneratedVectors.pairVerifyM3Signature))
        try info.verify(signature: hex(GeneratedVectors.pairVerifyM3Signature).span.bytes, signer: controllerKey.publicKey)
    }

    @Test func pairSetupM5IsControllerXThenControllerIDThenControllerLTPK() throws {
        let info = try PairingSignedInfo.pairSetupM5(
            controllerSignX: pairSetupKeys.controllerSignX,
            controllerPairingID: ascii(GeneratedVectors.controllerPairingID).span.bytes,
            controllerLongTermPublicKey: controllerKey.publicKey)
        #expect(info.signature(signedBy: controllerKey) == hex(GeneratedVectors.pairSetupM5Signature))
        try info.verify(signature: hex(GeneratedVectors.pairSetupM5Signature).span.bytes, signer: controllerKey.publicKey)
    }

    @Test func pairSetupM6IsAccessoryXThenAccessoryIDThenAccessoryLTPK() throws {
        let info = try pairSetupM6(longTermPublicKey: accessoryKey.publicKey)
        #expect(info.signature(signedBy: accessoryKey) == hex(GeneratedVectors.pairSetupM6Signature))
        try info.verify(signature: hex(GeneratedVectors.pairSetupM6Signature).span.bytes, signer: accessoryKey.publicKey)
    }

    @Test func anAllZeroAccessoryLTPKInM6FailsCleanly() throws {
        // PROTOCOL §8 #4: a Cozylife switch sent an all-zero AccessoryLTPK.
        let zeroKey = try Ed25519.PublicKey([UInt8](repeating: 0, count: 32))
        let info = try pairSetupM6(longTermPublicKey: zeroKey)
        do {
            try info.verify(signature: hex(GeneratedVectors.pairSetupM6Signature).span.bytes, signer: zeroKey)
            Issue.record("an all-zero LTPK verified")
        } catch {
            #expect(error.code == .invalidPublicKey)
            #expect(error.reason.hasPrefix("Pair Setup M6 signature"))
        }
    }

    @Test func theWrongSignerFailsVerification() throws {
        let info = try pairVerifyM2()
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try info.verify(signature: hex(GeneratedVectors.pairVerifyM2Signature).span.bytes, signer: controllerKey.publicKey)
        }
    }

    @Test func theOrderOfTheSignedMaterialMatters() throws {
        // The same two curve keys in M3 order (controller first) are not the M2 material.
        let reordered = try PairingSignedInfo.pairVerifyM3(
            controllerCurvePublicKey: hex(HAPVectors.controllerPublicKey).span.bytes,
            controllerPairingID: ascii(GeneratedVectors.accessoryPairingID).span.bytes,
            accessoryCurvePublicKey: hex(HAPVectors.accessoryPublicKey).span.bytes)
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try reordered.verify(signature: hex(GeneratedVectors.pairVerifyM2Signature).span.bytes, signer: accessoryKey.publicKey)
        }
    }

    @Test func anotherPairingIDFailsVerification() throws {
        let otherID = try PairingSignedInfo.pairVerifyM2(
            accessoryCurvePublicKey: hex(HAPVectors.accessoryPublicKey).span.bytes,
            accessoryPairingID: ascii("E1:91:1A:70:85:AB").span.bytes,
            controllerCurvePublicKey: hex(HAPVectors.controllerPublicKey).span.bytes)
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try otherID.verify(signature: hex(GeneratedVectors.pairVerifyM2Signature).span.bytes, signer: accessoryKey.publicKey)
        }
    }

    @Test func curveKeysAndXMustHaveTheirSizes() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try PairingSignedInfo.pairVerifyM2(
                accessoryCurvePublicKey: [UInt8](repeating: 1, count: 31).span.bytes,
                accessoryPairingID: ascii("E1:91:1A:70:85:AA").span.bytes,
                controllerCurvePublicKey: hex(HAPVectors.controllerPublicKey).span.bytes)
        }
        #expect(throws: CryptoError(.invalidSize, "")) {
            try PairingSignedInfo.pairSetupM5(
                controllerSignX: SecretBytes([1, 2, 3]),
                controllerPairingID: ascii("id").span.bytes,
                controllerLongTermPublicKey: controllerKey.publicKey)
        }
    }

    @Test func printingShowsNeitherXNorKeys() throws {
        let info = try pairSetupM6(longTermPublicKey: accessoryKey.publicKey)
        #expect(info.description == "PairingSignedInfo(Pair Setup M6, 81 bytes)")
    }
}
