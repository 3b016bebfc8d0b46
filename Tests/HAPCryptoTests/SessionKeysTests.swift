import Testing
import HAPCrypto

@Suite struct SessionKeysTests {
    @Test func keysFromAKeyLogAreKeptPerDirection() throws {
        let read = try ChaCha20Poly1305.Key(secret(HAPVectors.accessoryToControllerKey))
        let write = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
        let keys = SessionKeys(accessoryToController: read, controllerToAccessory: write)
        #expect(keys == (try PairVerifyKeys(sharedSecret: secret(HAPVectors.sharedSecret))).session)
        #expect(keys != SessionKeys(accessoryToController: write, controllerToAccessory: read))
    }

    @Test func printingRevealsNoKeyBytes() throws {
        let keys = try PairVerifyKeys(sharedSecret: secret(HAPVectors.sharedSecret)).session
        #expect(keys.description == "SessionKeys(accessoryToController: <secret, 32 bytes>, controllerToAccessory: <secret, 32 bytes>)")
    }
}
