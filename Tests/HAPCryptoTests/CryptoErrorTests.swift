import Testing
import HAPCrypto

@Suite struct CryptoErrorTests {
    @Test func errorsCompareByCodeNotByWording() {
        let first = CryptoError(.invalidSize, "a key must be 32 bytes, not 31")
        let second = CryptoError(.invalidSize, "a nonce must be 12 bytes, not 8")
        #expect(first == second)
        #expect(first != CryptoError(.authenticationFailed, "a key must be 32 bytes, not 31"))
    }

    @Test func theDescriptionNamesTheCodeAndTheReason() {
        let error = CryptoError(.invalidSignature, "the Ed25519 signature does not verify")
        #expect(error.description == "invalid signature: the Ed25519 signature does not verify")
    }
}
