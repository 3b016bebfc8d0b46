import Testing
import HAPCrypto

@Suite struct PairingEncryptedDataTests {
    let pairVerifyKey: ChaCha20Poly1305.Key
    let pairSetupKey: ChaCha20Poly1305.Key

    init() throws {
        pairVerifyKey = try ChaCha20Poly1305.Key(secret(HAPVectors.pairVerifyEncryptionKey))
        pairSetupKey = try ChaCha20Poly1305.Key(secret(GeneratedVectors.pairSetupEncryptionKey))
    }

    @Test func opensThePairVerifyM2SubTLV() throws {
        let subTLV = try PairingEncryptedData.open(
            hex(GeneratedVectors.pairVerifyM2EncryptedData).span.bytes, of: .pairVerifyM2, key: pairVerifyKey)
        #expect(subTLV == hex(GeneratedVectors.pairVerifyM2SubTLV))
    }

    @Test func opensThePairSetupM5SubTLV() throws {
        let subTLV = try PairingEncryptedData.open(
            hex(GeneratedVectors.pairSetupM5EncryptedData).span.bytes, of: .pairSetupM5, key: pairSetupKey)
        #expect(subTLV == hex(GeneratedVectors.pairSetupM5SubTLV))
    }

    @Test func sealingReproducesTheEncryptedData() {
        let sealed = PairingEncryptedData.seal(hex(GeneratedVectors.pairVerifyM2SubTLV).span.bytes, for: .pairVerifyM2, key: pairVerifyKey)
        #expect(sealed == hex(GeneratedVectors.pairVerifyM2EncryptedData))
    }

    @Test func theWrongMessageLabelFailsAndSaysWhichMessage() {
        do {
            _ = try PairingEncryptedData.open(
                hex(GeneratedVectors.pairVerifyM2EncryptedData).span.bytes, of: .pairVerifyM3, key: pairVerifyKey)
            Issue.record("M2 data opened as M3")
        } catch {
            #expect(error.code == .authenticationFailed)
            #expect(error.reason.hasPrefix("Pair Verify M3 EncryptedData"))
        }
    }

    @Test func theWrongKeyFailsAuthentication() {
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try PairingEncryptedData.open(hex(GeneratedVectors.pairVerifyM2EncryptedData).span.bytes, of: .pairVerifyM2, key: pairSetupKey)
        }
    }

    @Test func dataShorterThanATagIsAnInvalidSize() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try PairingEncryptedData.open([UInt8](repeating: 0, count: 10).span.bytes, of: .pairSetupM6, key: pairSetupKey)
        }
    }
}
