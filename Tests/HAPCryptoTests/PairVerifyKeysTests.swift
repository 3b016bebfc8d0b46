import Testing
import HAPCrypto

@Suite struct PairVerifyKeysTests {
    @Test func derivesTheEncryptionKeyAndBothSessionKeysOfTheFactSheet() throws {
        let keys = try PairVerifyKeys(sharedSecret: secret(HAPVectors.sharedSecret))
        #expect(keys.encryptionKey.secret.revealedBytes() == hex(HAPVectors.pairVerifyEncryptionKey))
        #expect(keys.session.accessoryToController.secret.revealedBytes() == hex(HAPVectors.accessoryToControllerKey))
        #expect(keys.session.controllerToAccessory.secret.revealedBytes() == hex(HAPVectors.controllerToAccessoryKey))
    }

    @Test func aSharedSecretOfTheWrongLengthIsRefused() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try PairVerifyKeys(sharedSecret: SecretBytes(Array(hex(HAPVectors.sharedSecret).dropLast())))
        }
    }

    @Test func printingTheKeysRevealsNoKeyBytes() throws {
        let keys = try PairVerifyKeys(sharedSecret: secret(HAPVectors.sharedSecret))
        let printed = "\(keys)"
        #expect(!printed.contains("4088b4ce"))
        #expect(!printed.contains("522fa526"))
        #expect(printed.contains("<secret, 32 bytes>"))
    }
}
