import HAPCrypto
import HAPEvents
import Testing
import TestSupport
import TLV8
@testable import HAPCore

@Suite("Checking a pairing signature")
struct SignatureCheckTests {
    let verify = PairVerifyTranscript()

    /// What the accessory signs in pair-verify M2.
    private func signedInfo(accessoryKey: [UInt8]? = nil) -> (Ed25519.PublicKey) throws(CryptoError) -> PairingSignedInfo {
        let accessory = accessoryKey ?? verify.accessoryPublicKey
        let controller = verify.controllerPublicKey
        let id = Array(verify.accessory.identifier.utf8)
        return { (_) throws(CryptoError) in
            try PairingSignedInfo.pairVerifyM2(
                accessoryCurvePublicKey: accessory.span.bytes, accessoryPairingID: id.span.bytes,
                controllerCurvePublicKey: controller.span.bytes)
        }
    }

    private var signature: [UInt8] { verify.accessorySubTLV().signature ?? [] }

    @Test("a signature by the signer's long-term key passes")
    func passes() {
        let check = SignatureCheck.verify(.m2, signerKey: verify.accessory.longTermPublicKey, who: "accessory A", signature: signature, signedInfo: signedInfo())
        #expect(check == PairingCheck(.signature(.m2), .passed, detail: "Ed25519 signature of accessory A verified"))
    }

    @Test("without the signer's key it is not checked, and says whose key is missing")
    func unknownKey() {
        let check = SignatureCheck.verify(.m3, signerKey: nil, who: "controller C", signature: signature, signedInfo: signedInfo())
        #expect(check == PairingCheck(.signature(.m3), .notChecked("no long-term public key known for controller C")))
    }

    @Test("a key that is not 32 bytes fails, saying the key is no Ed25519 key")
    func invalidKey() {
        let check = SignatureCheck.verify(.m6, signerKey: [1, 2, 3], who: "accessory A", signature: signature, signedInfo: signedInfo())
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("the long-term key of accessory A is not an Ed25519 public key: "))
    }

    @Test("signed material that cannot be built fails, saying it is malformed")
    func malformedMaterial() {
        let check = SignatureCheck.verify(
            .m2, signerKey: verify.accessory.longTermPublicKey, who: "accessory A", signature: signature,
            signedInfo: signedInfo(accessoryKey: [1, 2, 3]))
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("the signed material is malformed: "))
    }

    @Test("a signature by another key fails, naming the signer")
    func badSignature() {
        let check = SignatureCheck.verify(
            .m2, signerKey: verify.accessory.longTermPublicKey, who: "accessory A",
            signature: verify.accessorySubTLV(signedBy: .stranger).signature ?? [], signedInfo: signedInfo())
        #expect(check.outcome == .failed)
        #expect(check.detail.hasPrefix("Ed25519 signature of accessory A does not verify: "))
    }

    @Test("a signature of the wrong length fails rather than being read past its end")
    func shortSignature() {
        let check = SignatureCheck.verify(
            .m2, signerKey: verify.accessory.longTermPublicKey, who: "accessory A", signature: Array(signature.prefix(10)), signedInfo: signedInfo())
        #expect(check.outcome == .failed)
    }
}
