import Testing
import HAPCrypto

@Suite struct HMACSHA512Tests {
    @Test func matchesRFC4231TestCase2() {
        let code = HMACSHA512.authenticationCode(for: ascii("what do ya want for nothing?").span.bytes, key: ascii("Jefe").span.bytes)
        #expect(code == hex("""
            164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fd
            caeab1a34d4a6b4b636e070a38bce737
            """))
    }

    @Test func acceptsAKeyLongerThanTheBlockSizeAsRFC4231TestCase6() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let code = HMACSHA512.authenticationCode(for: ascii("Test Using Larger Than Block-Size Key - Hash Key First").span.bytes, key: key.span.bytes)
        #expect(code == hex("""
            80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e52
            95e64f73f63f0aec8b915a985d786598
            """))
    }

    @Test func aSecretKeyGivesTheSameCodeAsItsBytes() {
        let message = ascii("what do ya want for nothing?")
        var hmac = HMACSHA512(key: SecretBytes(ascii("Jefe")))
        hmac.update(message.span.bytes)
        #expect(hmac.finalize() == HMACSHA512.authenticationCode(for: message.span.bytes, key: ascii("Jefe").span.bytes))
    }
}
