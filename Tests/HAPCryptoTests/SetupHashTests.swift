import Testing
import HAPCrypto

@Suite struct SetupHashTests {
    // test-vectors §1, from HomeKitADK Tests/HAPAccessorySetupGetSetupHashTest.c.
    @Test(arguments: [
        ("7OSX", "E1:91:1A:70:85:AA", "c9fe1bcf", "yf4bzw=="),
        ("7OSX", "C8:D8:58:C6:63:F5", "ef5d8e9b", "712Omw=="),
    ])
    func matchesHomeKitADKsSetupHashes(setupID: String, deviceID: String, digest: String, base64: String) throws {
        let hash = try SetupHash(setupID: setupID, deviceID: deviceID)
        #expect(hash.bytes == hex(digest))
        #expect(hash.base64 == base64)
        #expect(try SetupHash(base64: base64) == hash)
    }

    @Test func aLowerCaseDeviceIDHashesDifferently() throws {
        let advertised = try SetupHash(setupID: "7OSX", deviceID: "e1:91:1a:70:85:aa")
        #expect(advertised.base64 != "yf4bzw==")
    }

    @Test(arguments: ["7osx", "7OS", "7OSXX", "7-SX", ""])
    func setupIDsMustBeFourCharactersOfDigitsAndCapitals(setupID: String) {
        #expect(throws: CryptoError(.invalidFormat, "")) { try SetupHash(setupID: setupID, deviceID: "E1:91:1A:70:85:AA") }
    }

    @Test(arguments: ["yf4bzw=", "yf4bzw==x", "yf4bzw", "yf4bz===", "AAAAAAAA", "", "yf4b zw=="])
    func anShValueThatIsNotTheBase64OfFourBytesIsRefused(text: String) {
        #expect(throws: CryptoError(.invalidFormat, "")) { try SetupHash(base64: text) }
    }
}
