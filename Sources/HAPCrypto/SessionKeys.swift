/// The two keys of an encrypted HAP session, one per direction (PROTOCOL §4.1).
public struct SessionKeys: Sendable, Equatable, CustomStringConvertible {
    /// Seals accessory → controller frames: HAP's `Control-Read-Encryption-Key` (the
    /// controller reads with it).
    public let accessoryToController: ChaCha20Poly1305.Key
    /// Seals controller → accessory frames: HAP's `Control-Write-Encryption-Key`.
    public let controllerToAccessory: ChaCha20Poly1305.Key

    /// Keys taken from a key log that records them directly.
    public init(accessoryToController: ChaCha20Poly1305.Key, controllerToAccessory: ChaCha20Poly1305.Key) {
        self.accessoryToController = accessoryToController
        self.controllerToAccessory = controllerToAccessory
    }

    /// HAP: session keys after Pair Verify: HKDF-SHA-512 of the X25519 shared secret, salt
    /// `Control-Salt`, infos `Control-Read-Encryption-Key` and `Control-Write-Encryption-Key`.
    init(pairVerifySharedSecret secret: SecretBytes) {
        accessoryToController = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: secret, salt: "Control-Salt", info: "Control-Read-Encryption-Key"))
        controllerToAccessory = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: secret, salt: "Control-Salt", info: "Control-Write-Encryption-Key"))
    }

    /// HAP: transient Pair Setup session keys: HKDF-SHA-512 of SRP K, salt `SplitSetupSalt`,
    /// infos `AccessoryEncrypt-Control` (A→C) and `ControllerEncrypt-Control` (C→A).
    init(transientPairSetupKey key: SecretBytes) {
        accessoryToController = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: key, salt: "SplitSetupSalt", info: "AccessoryEncrypt-Control"))
        controllerToAccessory = ChaCha20Poly1305.Key(validSecret: HKDFSHA512.deriveKey(
            inputKeyMaterial: key, salt: "SplitSetupSalt", info: "ControllerEncrypt-Control"))
    }

    public var description: String {
        "SessionKeys(accessoryToController: \(accessoryToController.secret), controllerToAccessory: \(controllerToAccessory.secret))"
    }
}
