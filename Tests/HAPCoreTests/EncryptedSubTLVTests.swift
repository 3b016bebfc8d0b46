import HAPCrypto
import HAPEvents
import Testing
import TestSupport
import TLV8
@testable import HAPCore

@Suite("Opening the encrypted sub-TLV of a pairing message")
struct EncryptedSubTLVTests {
    let verify = PairVerifyTranscript()

    private func sealed(_ plaintext: [UInt8], _ message: PairingMessage = .pairVerifyM2) -> [UInt8] {
        PairingEncryptedData.seal(plaintext.span.bytes, for: message, key: verify.keys.encryptionKey)
    }

    @Test("sealed with the key given, it opens to the sub-TLV its step holds")
    func opens() {
        let inner = verify.accessorySubTLV()
        let opening = EncryptedSubTLV.open(
            sealed(inner.encoded()), of: .pairVerifyM2, state: .m2, key: verify.keys.encryptionKey, context: .pairVerifyM2, keyName: "K")
        guard case .opened(let opened) = opening else {
            Issue.record("it should open")
            return
        }
        #expect(opened == inner)
    }

    @Test("sealed with another key, it is refused with a failed decryption check naming the message and the key")
    func wrongKey() {
        let opening = EncryptedSubTLV.open(
            sealed(verify.accessorySubTLV().encoded()), of: .pairVerifyM2, state: .m2, key: .stranger, context: .pairVerifyM2,
            keyName: "the logged shared secret")
        guard case .refused(let check) = opening else {
            Issue.record("it should be refused")
            return
        }
        #expect(check == PairingCheck(.subTLVDecryption(.m2), .failed, detail: "Pair Verify M2 does not decrypt with the logged shared secret"))
    }

    @Test("sealed under another step's nonce, it is refused: M2's data is not M3's")
    func wrongNonce() {
        let opening = EncryptedSubTLV.open(
            sealed(verify.controllerSubTLV().encoded(), .pairVerifyM2), of: .pairVerifyM3, state: .m3, key: verify.keys.encryptionKey,
            context: .pairVerifyM3, keyName: "K")
        guard case .refused(let check) = opening else {
            Issue.record("it should be refused")
            return
        }
        #expect(check.kind == .subTLVDecryption(.m3))
    }

    @Test("data shorter than its tag is refused, not trapped on")
    func tooShort() {
        let opening = EncryptedSubTLV.open([1, 2, 3], of: .pairSetupM5, state: .m5, key: .stranger, context: .pairSetupM5, keyName: "K")
        guard case .refused(let check) = opening else {
            Issue.record("it should be refused")
            return
        }
        #expect(check.outcome == .failed)
    }

    @Test("plaintext that is no TLV8 still opens, to what could be read of it")
    func garbagePlaintext() {
        let opening = EncryptedSubTLV.open(
            sealed([0x01, 0xFF, 0x41]), of: .pairVerifyM2, state: .m2, key: verify.keys.encryptionKey, context: .pairVerifyM2, keyName: "K")
        guard case .opened(let opened) = opening else {
            Issue.record("it should open")
            return
        }
        #expect(opened.signature == nil)
    }

    @Test("an empty plaintext opens to an empty sub-TLV")
    func emptyPlaintext() {
        let opening = EncryptedSubTLV.open(
            sealed([]), of: .pairVerifyM2, state: .m2, key: verify.keys.encryptionKey, context: .pairVerifyM2, keyName: "K")
        guard case .opened(let opened) = opening else {
            Issue.record("it should open")
            return
        }
        #expect(opened == PairingSubTLV())
    }
}
