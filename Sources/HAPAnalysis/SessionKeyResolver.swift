import HAPCrypto

/// Which key-log entry opened a session, so reports can say why a session was or was not
/// decrypted.
public enum KeySource: String, Sendable, Hashable, CustomStringConvertible {
    case pairVerifySharedSecret = "PAIR_VERIFY_SHARED_SECRET"
    case controllerEphemeralSecret = "CONTROLLER_EPHEMERAL_SECRET"
    case accessoryEphemeralSecret = "ACCESSORY_EPHEMERAL_SECRET"
    case controlKeys = "CONTROL_WRITE_KEY/CONTROL_READ_KEY"
    case pairSetupSessionKey = "PAIR_SETUP_SESSION_KEY"

    public var description: String { rawValue }
}

/// The keys known for one session, per direction: a key log may hold only one of the two
/// control keys.
struct DirectionalSessionKeys {
    var controllerToAccessory: ChaCha20Poly1305.Key?
    var accessoryToController: ChaCha20Poly1305.Key?

    init(controllerToAccessory: ChaCha20Poly1305.Key?, accessoryToController: ChaCha20Poly1305.Key?) {
        self.controllerToAccessory = controllerToAccessory
        self.accessoryToController = accessoryToController
    }

    init(_ keys: SessionKeys) {
        self.init(controllerToAccessory: keys.controllerToAccessory, accessoryToController: keys.accessoryToController)
    }

    var isEmpty: Bool { controllerToAccessory == nil && accessoryToController == nil }
}

/// What the key log yields for one pair-verify exchange.
struct PairVerifySecrets {
    /// Opens the M2 and M3 sub-TLVs; only a shared secret (given or computed) yields it.
    var pairVerifyKeys: PairVerifyKeys?
    var session: DirectionalSessionKeys
    var source: KeySource
}

enum SessionKeyResolver {
    /// Finds the secrets for the pair-verify whose M1 carried `controllerKey` and whose M2
    /// carried `accessoryKey` (nil when M2 was not seen), preferring the entry that gives the most.
    static func resolve(keyLog: KeyLog, controllerKey: [UInt8], accessoryKey: [UInt8]?) -> PairVerifySecrets? {
        if let shared = sharedSecret(keyLog: keyLog, controllerKey: controllerKey, accessoryKey: accessoryKey),
           let keys = try? PairVerifyKeys(sharedSecret: shared.secret) {
            return PairVerifySecrets(pairVerifyKeys: keys, session: DirectionalSessionKeys(keys.session), source: shared.source)
        }
        let write = keyLog.secret(.controlWriteKey, for: controllerKey).flatMap { try? ChaCha20Poly1305.Key($0) }
        let read = keyLog.secret(.controlReadKey, for: controllerKey).flatMap { try? ChaCha20Poly1305.Key($0) }
        let session = DirectionalSessionKeys(controllerToAccessory: write, accessoryToController: read)
        return session.isEmpty ? nil : PairVerifySecrets(pairVerifyKeys: nil, session: session, source: .controlKeys)
    }

    private static func sharedSecret(keyLog: KeyLog, controllerKey: [UInt8], accessoryKey: [UInt8]?) -> (secret: SecretBytes, source: KeySource)? {
        if let shared = keyLog.secret(.pairVerifySharedSecret, for: controllerKey) {
            return (shared, .pairVerifySharedSecret)
        }
        guard let accessoryKey else { return nil }
        if let secret = keyLog.secret(.controllerEphemeralSecret, for: controllerKey),
           let shared = try? X25519.PrivateKey(secret).sharedSecret(with: accessoryKey.span.bytes) {
            return (shared, .controllerEphemeralSecret)
        }
        if let secret = keyLog.secret(.accessoryEphemeralSecret, for: accessoryKey),
           let shared = try? X25519.PrivateKey(secret).sharedSecret(with: controllerKey.span.bytes) {
            return (shared, .accessoryEphemeralSecret)
        }
        return nil
    }
}
