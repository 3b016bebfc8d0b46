/// The bytes a pairing signature covers: HAP's iOSDeviceInfo or AccessoryInfo.
///
/// Each signer puts its own key material first, then its own pairing ID, then the last part
/// (PROTOCOL §2.4, §3). The bytes stay inside: Pair Setup material embeds the HKDF-derived X.
public struct PairingSignedInfo: Sendable, CustomStringConvertible {
    /// The message whose signature covers these bytes.
    public let message: PairingMessage
    private let bytes: [UInt8]

    private init(_ message: PairingMessage, _ parts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer)) {
        self.message = message
        var bytes = [UInt8]()
        bytes.reserveCapacity(parts.0.count + parts.1.count + parts.2.count)
        bytes.append(contentsOf: parts.0)
        bytes.append(contentsOf: parts.1)
        bytes.append(contentsOf: parts.2)
        self.bytes = bytes
    }

    /// HAP: Pair Verify M2, signed by the accessory's long-term key:
    /// AccessoryCvPK ‖ AccessoryPairingID ‖ iOSDeviceCvPK.
    ///
    /// - Throws: `CryptoError.invalidSize` unless both X25519 keys are 32 bytes long.
    public static func pairVerifyM2(
        accessoryCurvePublicKey: RawSpan, accessoryPairingID: RawSpan, controllerCurvePublicKey: RawSpan
    ) throws(CryptoError) -> PairingSignedInfo {
        try pairVerify(
            .pairVerifyM2, signer: accessoryCurvePublicKey, "AccessoryCvPK", signerPairingID: accessoryPairingID,
            peer: controllerCurvePublicKey, "iOSDeviceCvPK")
    }

    /// HAP: Pair Verify M3, signed by the controller's long-term key:
    /// iOSDeviceCvPK ‖ iOSDevicePairingID ‖ AccessoryCvPK.
    ///
    /// - Throws: `CryptoError.invalidSize` unless both X25519 keys are 32 bytes long.
    public static func pairVerifyM3(
        controllerCurvePublicKey: RawSpan, controllerPairingID: RawSpan, accessoryCurvePublicKey: RawSpan
    ) throws(CryptoError) -> PairingSignedInfo {
        try pairVerify(
            .pairVerifyM3, signer: controllerCurvePublicKey, "iOSDeviceCvPK", signerPairingID: controllerPairingID,
            peer: accessoryCurvePublicKey, "AccessoryCvPK")
    }

    /// HAP: Pair Setup M5, signed by the controller's long-term key:
    /// iOSDeviceX ‖ iOSDevicePairingID ‖ iOSDeviceLTPK.
    ///
    /// - Throws: `CryptoError.invalidSize` unless X is 32 bytes long.
    public static func pairSetupM5(
        controllerSignX: SecretBytes, controllerPairingID: RawSpan, controllerLongTermPublicKey: Ed25519.PublicKey
    ) throws(CryptoError) -> PairingSignedInfo {
        try pairSetup(
            .pairSetupM5, signX: controllerSignX, "iOSDeviceX", pairingID: controllerPairingID,
            longTermPublicKey: controllerLongTermPublicKey)
    }

    /// HAP: Pair Setup M6, signed by the accessory's long-term key:
    /// AccessoryX ‖ AccessoryPairingID ‖ AccessoryLTPK.
    ///
    /// - Throws: `CryptoError.invalidSize` unless X is 32 bytes long.
    public static func pairSetupM6(
        accessorySignX: SecretBytes, accessoryPairingID: RawSpan, accessoryLongTermPublicKey: Ed25519.PublicKey
    ) throws(CryptoError) -> PairingSignedInfo {
        try pairSetup(
            .pairSetupM6, signX: accessorySignX, "AccessoryX", pairingID: accessoryPairingID,
            longTermPublicKey: accessoryLongTermPublicKey)
    }

    /// Pair Verify M2 and M3: the signer's X25519 key ‖ its pairing ID ‖ the peer's X25519 key.
    /// Each key is followed by its name in HAP, for the error.
    private static func pairVerify(
        _ message: PairingMessage, signer signerCurveKey: RawSpan, _ signerKeyName: String, signerPairingID: RawSpan,
        peer peerCurveKey: RawSpan, _ peerKeyName: String
    ) throws(CryptoError) -> PairingSignedInfo {
        try CryptoError.requireSize(signerCurveKey.byteCount, X25519.byteCount, of: signerKeyName)
        try CryptoError.requireSize(peerCurveKey.byteCount, X25519.byteCount, of: peerKeyName)
        return signerCurveKey.withUnsafeBytes { first in
            signerPairingID.withUnsafeBytes { pairingID in
                peerCurveKey.withUnsafeBytes { last in
                    PairingSignedInfo(message, (first, pairingID, last))
                }
            }
        }
    }

    /// Pair Setup M5 and M6: the signer's HKDF-derived X ‖ its pairing ID ‖ its long-term
    /// public key. X is followed by its name in HAP, for the error.
    private static func pairSetup(
        _ message: PairingMessage, signX: SecretBytes, _ signXName: String, pairingID: RawSpan,
        longTermPublicKey: Ed25519.PublicKey
    ) throws(CryptoError) -> PairingSignedInfo {
        try CryptoError.requireSize(signX.count, 32, of: signXName)
        return signX.withUnsafeBytes { first in
            pairingID.withUnsafeBytes { pairingID in
                longTermPublicKey.bytes.withUnsafeBytes { last in
                    PairingSignedInfo(message, (first, pairingID, last))
                }
            }
        }
    }

    /// Checks the message's `Signature` item against the signer's long-term public key
    /// (for Pair Setup M5 and M6, the key carried in the same message).
    ///
    /// - Throws: `CryptoError.invalidPublicKey` for an all-zero key, a firmware bug seen in
    ///   the wild (PROTOCOL §8 #4); `CryptoError.invalidSize` unless the signature is 64
    ///   bytes long; `CryptoError.invalidSignature` when it does not verify.
    public func verify(signature: RawSpan, signer: Ed25519.PublicKey) throws(CryptoError) {
        do {
            try signer.verify(signature: signature, for: bytes.span.bytes)
        } catch {
            throw CryptoError(error.code, "\(message) signature: \(error.reason)")
        }
    }

    /// The signature the signer puts in the message (`crypto_sign_detached`).
    public func signature(signedBy key: Ed25519.SigningKey) -> [UInt8] {
        key.signature(for: bytes.span.bytes)
    }

    /// The length only: Pair Setup material embeds secret-derived bytes.
    public var description: String { "PairingSignedInfo(\(message), \(bytes.count) bytes)" }
}
