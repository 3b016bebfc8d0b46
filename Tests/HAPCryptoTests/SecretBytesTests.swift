import Testing
import HAPCrypto

@Suite struct SecretBytesTests {
    let key = secret(HAPVectors.sharedSecret)

    @Test func printingShowsOnlyTheLength() {
        #expect(key.description == "<secret, 32 bytes>")
        #expect(key.debugDescription == "<secret, 32 bytes>")
        #expect("\(key)" == "<secret, 32 bytes>")
    }

    @Test func secretsInsideOtherValuesStayHidden() throws {
        struct Holder { let name: String; let key: SecretBytes }
        let holder = Holder(name: "session", key: key)
        var dumped = ""
        dump(holder, to: &dumped)
        let printed = String(describing: holder)
        let reflected = String(reflecting: holder)
        for output in [dumped, printed, reflected] {
            #expect(!output.contains("4a5d9d5b"))
            // The first bytes as decimals, as an array would print them: 0x4a 0x5d.
            #expect(!output.contains("74, 93"), "decimal byte values leaked: \(output)")
        }
        #expect(printed.contains("<secret, 32 bytes>"))
        let keyLogKey = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
        #expect(!String(describing: keyLogKey).contains("55af0225"))
    }

    @Test func theBytesAreReachableOnlyOnPurpose() {
        #expect(key.revealedBytes() == hex(HAPVectors.sharedSecret))
        #expect(key.count == 32)
        let firstByte = key.withUnsafeBytes { $0[0] }
        #expect(firstByte == 0x4a)
    }

    @Test func equalityComparesContentAndLength() {
        #expect(key == secret(HAPVectors.sharedSecret))
        var altered = hex(HAPVectors.sharedSecret)
        altered[31] ^= 1
        #expect(key != SecretBytes(altered))
        #expect(key != SecretBytes(Array(hex(HAPVectors.sharedSecret).prefix(31))))
        #expect(SecretBytes([]) == SecretBytes([]))
    }

    @Test func randomSecretsHaveTheRequestedLengthAndDiffer() {
        let first = SecretBytes.random(count: 32)
        let second = SecretBytes.random(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
    }
}
