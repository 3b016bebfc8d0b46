/// Everything HAP derives from the SRP session key K of Pair Setup (PROTOCOL §2.4, §2.5).
public struct PairSetupKeys: Sendable, CustomStringConvertible {
    /// Seals the `EncryptedData` of M4 (MFi), M5 and M6: salt `Pair-Setup-Encrypt-Salt`,
    /// info `Pair-Setup-Encrypt-Info`.
    public let encryptionKey: ChaCha20Poly1305.Key
    /// HAP's iOSDeviceX, the first part of the material the controller signs in M5: salt
    /// `Pair-Setup-Controller-Sign-Salt`, info `Pair-Setup-Controller-Sign-Info`.
    public let controllerSignX: SecretBytes
    /// HAP's AccessoryX, the first part of the material the accessory signs in M6: salt
    /// `Pair-Setup-Accessory-Sign-Salt`, info `Pair-Setup-Accessory-Sign-Info`.
    public let accessorySignX: SecretBytes
    /// The session keys of a transient Pair Setup, which encrypts the connection right
    /// after M4 instead of running M5 and M6.
    public let transientSession: SessionKeys

    /// - Parameters:
    ///   - srpSessionKey: K = H(S), 64 bytes, from a key log.
    ///   - encoding: How the implementation under test feeds K into HKDF: HAP-python and
    ///     homekit_python strip K's own leading zero bytes (PROTOCOL §2.3); the matching
    ///     `SRPControllerProofConvention` tells which one a session used.
    /// - Throws: `CryptoError.invalidSize` unless K is 64 bytes long.
    public init(srpSessionKey: SecretBytes, encoding: SRPSessionKeyEncoding = .full) throws(CryptoError) {
        try CryptoError.requireSize(srpSessionKey.count, SRPGroup.sessionKeyByteCount, of: "the SRP session key K")
        let key = encoding.apply(to: srpSessionKey)
        // HAP: Pair Setup M5/M6 (PROTOCOL §2.4)
        encryptionKey = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: key, salt: "Pair-Setup-Encrypt-Salt", info: "Pair-Setup-Encrypt-Info"))
        controllerSignX = HKDFSHA512.deriveKey(
            inputKeyMaterial: key, salt: "Pair-Setup-Controller-Sign-Salt", info: "Pair-Setup-Controller-Sign-Info")
        accessorySignX = HKDFSHA512.deriveKey(
            inputKeyMaterial: key, salt: "Pair-Setup-Accessory-Sign-Salt", info: "Pair-Setup-Accessory-Sign-Info")
        // HAP: transient Pair Setup (PROTOCOL §2.5)
        transientSession = SessionKeys(transientPairSetupKey: key)
    }

    public var description: String {
        "PairSetupKeys(encryptionKey: \(encryptionKey.secret), controllerSignX: \(controllerSignX), accessorySignX: \(accessorySignX), transientSession: \(transientSession))"
    }
}
