import Testing
import HAPCrypto

@Suite struct HKDFSHA512Tests {
    let sharedSecret = secret(HAPVectors.sharedSecret)

    @Test func derivesTheHAPSessionKeysOfTheFactSheet() throws {
        let read = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: ascii("Control-Salt").span.bytes, info: ascii("Control-Read-Encryption-Key").span.bytes)
        let write = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: ascii("Control-Salt").span.bytes, info: ascii("Control-Write-Encryption-Key").span.bytes)
        let verify = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: ascii("Pair-Verify-Encrypt-Salt").span.bytes, info: ascii("Pair-Verify-Encrypt-Info").span.bytes)
        #expect(read.revealedBytes() == hex(HAPVectors.accessoryToControllerKey))
        #expect(write.revealedBytes() == hex(HAPVectors.controllerToAccessoryKey))
        #expect(verify.revealedBytes() == hex(HAPVectors.pairVerifyEncryptionKey))
    }

    @Test func expandsAcrossSeveralBlocksWithAPartialLastOne() throws {
        let output = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: ascii("Control-Salt").span.bytes,
            info: ascii("Control-Read-Encryption-Key").span.bytes, outputByteCount: 100)
        #expect(output.revealedBytes() == hex(GeneratedVectors.hkdf100Bytes))
    }

    @Test func anEmptySaltActsAsSixtyFourZeroBytes() throws {
        let withoutSalt = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: [UInt8]().span.bytes, info: [UInt8]().span.bytes, outputByteCount: 64)
        let zeroSalt = try HKDFSHA512.deriveKey(
            inputKeyMaterial: sharedSecret, salt: [UInt8](repeating: 0, count: 64).span.bytes, info: [UInt8]().span.bytes, outputByteCount: 64)
        #expect(withoutSalt.revealedBytes() == hex(GeneratedVectors.hkdfWithoutSalt))
        #expect(withoutSalt == zeroSalt)
    }

    @Test func extractThenExpandEqualsDeriveKey() throws {
        let prk = HKDFSHA512.extract(salt: ascii("Control-Salt").span.bytes, inputKeyMaterial: sharedSecret)
        let key = try HKDFSHA512.expand(pseudorandomKey: prk, info: ascii("Control-Read-Encryption-Key").span.bytes, outputByteCount: 32)
        #expect(prk.count == 64)
        #expect(key.revealedBytes() == hex(HAPVectors.accessoryToControllerKey))
    }

    @Test func outputLengthsOutsideRFC5869AreRefused() throws {
        let prk = HKDFSHA512.extract(salt: [UInt8]().span.bytes, inputKeyMaterial: sharedSecret)
        let longest = try HKDFSHA512.expand(pseudorandomKey: prk, info: [UInt8]().span.bytes, outputByteCount: 255 * 64)
        #expect(longest.count == HKDFSHA512.maximumOutputByteCount)
        #expect(throws: CryptoError(.invalidSize, "")) {
            try HKDFSHA512.expand(pseudorandomKey: prk, info: [UInt8]().span.bytes, outputByteCount: 255 * 64 + 1)
        }
        #expect(throws: CryptoError(.invalidSize, "")) {
            try HKDFSHA512.expand(pseudorandomKey: prk, info: [UInt8]().span.bytes, outputByteCount: -1)
        }
        let empty = try HKDFSHA512.expand(pseudorandomKey: prk, info: [UInt8]().span.bytes, outputByteCount: 0)
        #expect(empty.count == 0)
    }
}
