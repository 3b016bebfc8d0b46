import Testing
@testable import TLV8

@Suite struct TLV8TypeTests {
    @Test func everyPairingTypeHasItsHAPNameAndAFieldName() {
        let expected: [(UInt8, String, String)] = [
            (0x00, "Method", "method"), (0x01, "Identifier", "identifier"), (0x02, "Salt", "salt"),
            (0x03, "PublicKey", "publicKey"), (0x04, "Proof", "proof"), (0x05, "EncryptedData", "encryptedData"),
            (0x06, "State", "state"), (0x07, "Error", "error"), (0x08, "RetryDelay", "retryDelay"),
            (0x09, "Certificate", "certificate"), (0x0A, "Signature", "signature"), (0x0B, "Permissions", "permissions"),
            (0x0C, "FragmentData", "fragmentData"), (0x0D, "FragmentLast", "fragmentLast"),
            (0x0E, "SessionID", "sessionID"), (0x13, "Flags", "flags"), (0xFF, "Separator", "separator"),
        ]
        for (raw, name, field) in expected {
            let type = TLV8Type(raw)
            #expect(type.description == name)
            #expect(type.fieldName == field)
            #expect(type.isKnown)
        }
        let known = Set(expected.map(\.0))
        #expect((0 ... 255).filter { TLV8Type(UInt8($0)).isKnown }.count == known.count)
    }

    @Test func anUnknownTypeIsNamedByItsByte() {
        let type = TLV8Type(0x2A)
        #expect(!type.isKnown)
        #expect(type.name == nil)
        #expect(type.description == "0x2a")
        #expect(type.fieldName == "type0x2a")
    }
}
