import HAPCrypto
import HAPEvents
import TLV8

/// The Ed25519 signature checks of pair-setup M5 and M6 and pair-verify M2 and M3, each failure
/// named for what failed: no key known, a key that is not a key, malformed signed material, or a
/// signature that does not verify.
enum SignatureCheck {
    /// Checks `signature` by `who` over the material `signedInfo` builds, with the signer's
    /// long-term key `signerKey` (nil when no key is known).
    static func verify(
        _ state: PairingState, signerKey: [UInt8]?, who: String, signature: [UInt8],
        signedInfo: (Ed25519.PublicKey) throws(CryptoError) -> PairingSignedInfo
    ) -> PairingCheck {
        guard let signerKey else {
            return PairingCheck(.signature(state), .notChecked("no long-term public key known for \(who)"))
        }
        let signer: Ed25519.PublicKey
        do {
            signer = try Ed25519.PublicKey(signerKey)
        } catch {
            return PairingCheck(.signature(state), .failed, detail: "the long-term key of \(who) is not an Ed25519 public key: \(error.reason)")
        }
        let signed: PairingSignedInfo
        do {
            signed = try signedInfo(signer)
        } catch {
            return PairingCheck(.signature(state), .failed, detail: "the signed material is malformed: \(error.reason)")
        }
        do {
            try signed.verify(signature: signature.span.bytes, signer: signer)
            return PairingCheck(.signature(state), .passed, detail: "Ed25519 signature of \(who) verified")
        } catch {
            return PairingCheck(.signature(state), .failed, detail: "Ed25519 signature of \(who) does not verify: \(error.reason)")
        }
    }
}
