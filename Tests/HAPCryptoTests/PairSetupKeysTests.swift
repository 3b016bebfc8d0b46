import Testing
import HAPCrypto

@Suite struct PairSetupKeysTests {
    @Test func derivesEveryPairSetupKeyFromK() throws {
        let keys = try PairSetupKeys(srpSessionKey: secret(HAPVectors.srpK))
        #expect(keys.encryptionKey.secret.revealedBytes() == hex(GeneratedVectors.pairSetupEncryptionKey))
        #expect(keys.controllerSignX.revealedBytes() == hex(GeneratedVectors.controllerSignX))
        #expect(keys.accessorySignX.revealedBytes() == hex(GeneratedVectors.accessorySignX))
    }

    @Test func derivesTheTransientSessionKeysWithSplitSetupSalt() throws {
        let keys = try PairSetupKeys(srpSessionKey: secret(HAPVectors.srpK))
        #expect(keys.transientSession.accessoryToController.secret.revealedBytes() == hex(GeneratedVectors.transientAccessoryToControllerKey))
        #expect(keys.transientSession.controllerToAccessory.secret.revealedBytes() == hex(GeneratedVectors.transientControllerToAccessoryKey))
    }

    @Test func aKWithLeadingZerosDerivesDifferentlyWhenStripped() throws {
        let full = try PairSetupKeys(srpSessionKey: secret(GeneratedVectors.leadingZeroK))
        let stripped = try PairSetupKeys(srpSessionKey: secret(GeneratedVectors.leadingZeroK), encoding: .leadingZerosStripped)
        #expect(full.encryptionKey.secret.revealedBytes() == hex(GeneratedVectors.leadingZeroKFullEncryptionKey))
        #expect(stripped.encryptionKey.secret.revealedBytes() == hex(GeneratedVectors.leadingZeroKStrippedEncryptionKey))
    }

    @Test func aKWithoutLeadingZerosDerivesTheSameUnderBothEncodings() throws {
        let full = try PairSetupKeys(srpSessionKey: secret(HAPVectors.srpK))
        let stripped = try PairSetupKeys(srpSessionKey: secret(HAPVectors.srpK), encoding: .leadingZerosStripped)
        #expect(full.encryptionKey == stripped.encryptionKey)
    }

    @Test func aKThatIsNot64BytesIsRefused() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try PairSetupKeys(srpSessionKey: SecretBytes([UInt8](repeating: 1, count: 32)))
        }
    }
}
