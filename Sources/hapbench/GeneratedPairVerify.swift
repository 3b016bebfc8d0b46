import HAPCrypto
import TLV8
import WireParsing

/// One pair-verify with real X25519/Ed25519 material: the four messages' TLV8 bodies and the
/// session keys, its shared secret written to the key log. HAP over IP carries the messages in
/// `/pair-verify` bodies, HAP-BLE in the Value parameter of PDUs written to and read from the
/// Pair Verify characteristic; the messages are the same (HAP: Pair Verify M1–M4).
struct GeneratedPairVerify {
    let controllerEphemeralKey: [UInt8]
    let accessoryEphemeralKey: [UInt8]
    let keys: PairVerifyKeys

    /// The ephemeral X25519 exchange of pair-verify, its shared secret logged.
    init(keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        let controllerSecret = try X25519.PrivateKey(random.secret(X25519.byteCount))
        let accessorySecret = try X25519.PrivateKey(random.secret(X25519.byteCount))
        let controllerKey = controllerSecret.publicKey
        let accessoryKey = accessorySecret.publicKey
        let shared = try controllerSecret.sharedSecret(with: accessoryKey.span.bytes)
        keyLog.add("PAIR_VERIFY_SHARED_SECRET", Hex.encode(controllerKey), Hex.encode(shared.revealedBytes()))
        controllerEphemeralKey = controllerKey
        accessoryEphemeralKey = accessoryKey
        keys = try PairVerifyKeys(sharedSecret: shared)
    }

    /// HAP: Pair Verify M1, the controller's ephemeral key.
    var m1: [UInt8] {
        PairVerifyMessage.m1(.init(publicKey: controllerEphemeralKey)).encoded()
    }

    /// HAP: Pair Verify M2, the accessory's ephemeral key and its signature, sealed.
    func m2(accessoryID: String, accessoryKey: Ed25519.SigningKey) throws(CryptoError) -> [UInt8] {
        let signed = try PairingSignedInfo.pairVerifyM2(
            accessoryCurvePublicKey: accessoryEphemeralKey.span.bytes, accessoryPairingID: Array(accessoryID.utf8).span.bytes,
            controllerCurvePublicKey: controllerEphemeralKey.span.bytes)
        let sealed = sealedProof(accessoryID, signed, signedBy: accessoryKey, for: .pairVerifyM2)
        return PairVerifyMessage.m2(.init(publicKey: accessoryEphemeralKey, encryptedData: sealed)).encoded()
    }

    /// HAP: Pair Verify M3, the controller's signature, sealed.
    func m3(controllerID: String, controllerKey: Ed25519.SigningKey) throws(CryptoError) -> [UInt8] {
        let signed = try PairingSignedInfo.pairVerifyM3(
            controllerCurvePublicKey: controllerEphemeralKey.span.bytes, controllerPairingID: Array(controllerID.utf8).span.bytes,
            accessoryCurvePublicKey: accessoryEphemeralKey.span.bytes)
        return PairVerifyMessage.m3(.init(encryptedData: sealedProof(controllerID, signed, signedBy: controllerKey, for: .pairVerifyM3))).encoded()
    }

    /// The EncryptedData of M2 and M3: the sender's identifier and its signature of `signed`.
    private func sealedProof(_ id: String, _ signed: PairingSignedInfo, signedBy key: Ed25519.SigningKey, for message: PairingMessage) -> [UInt8] {
        let inner = PairingSubTLV(identifier: PairingIdentifier(id), signature: signed.signature(signedBy: key)).encoded()
        return PairingEncryptedData.seal(inner.span.bytes, for: message, key: keys.encryptionKey)
    }

    /// HAP: Pair Verify M4; the session is secured from the message after it.
    var m4: [UInt8] {
        PairVerifyMessage.m4.encoded()
    }
}
