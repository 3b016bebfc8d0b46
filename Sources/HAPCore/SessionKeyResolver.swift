import HAPCrypto
import HAPEvents

/// The keys known for one session, per direction: a key log may hold only one of the two
/// control keys.
package struct DirectionalSessionKeys {
    package var controllerToAccessory: ChaCha20Poly1305.Key?
    package var accessoryToController: ChaCha20Poly1305.Key?

    package init(controllerToAccessory: ChaCha20Poly1305.Key?, accessoryToController: ChaCha20Poly1305.Key?) {
        self.controllerToAccessory = controllerToAccessory
        self.accessoryToController = accessoryToController
    }

    package init(_ keys: SessionKeys) {
        self.init(controllerToAccessory: keys.controllerToAccessory, accessoryToController: keys.accessoryToController)
    }

    package static let none = DirectionalSessionKeys(controllerToAccessory: nil, accessoryToController: nil)

    package var isEmpty: Bool { controllerToAccessory == nil && accessoryToController == nil }

    package subscript(direction: HAPDirection) -> ChaCha20Poly1305.Key? {
        direction == .controllerToAccessory ? controllerToAccessory : accessoryToController
    }
}

/// How a connection's traffic continues after the pairing message that ends a pair-verify (or a
/// transient pair-setup): encrypted, with the keys the key log gave, or without keys and why.
package struct SessionStart {
    package let trigger: SessionStartEvent.Trigger
    package let keys: DirectionalSessionKeys
    package let source: KeySource?
    /// Why there are no keys, when there are none.
    package let missingKeys: SessionStartEvent.UndecryptableReason?
}

/// What the key log yields for one pair-verify exchange.
package struct PairVerifySecrets {
    /// Opens the M2 and M3 sub-TLVs; only a shared secret (given or computed) yields it.
    package var pairVerifyKeys: PairVerifyKeys?
    package var session: DirectionalSessionKeys
    package var source: KeySource
}

package enum SessionKeyResolver {
    /// Finds the secrets for the pair-verify whose M1 carried `controllerKey` and whose M2
    /// carried `accessoryKey` (nil when M2 was not seen), preferring the entry that gives the most.
    ///
    /// The key log checked every value's length when it was read, so derivations cannot fail on
    /// its values; a computed shared secret can (a low-order public key gives an all-zero
    /// secret, which libsodium refuses), and then the next entry is tried.
    package static func resolve(keyLog: KeyLog, controllerKey: [UInt8], accessoryKey: [UInt8]?) -> PairVerifySecrets? {
        for source in [KeySource.pairVerifySharedSecret, .controllerEphemeralSecret, .accessoryEphemeralSecret] {
            guard let shared = sharedSecret(from: source, keyLog: keyLog, controllerKey: controllerKey, accessoryKey: accessoryKey),
                  let keys = try? PairVerifyKeys(sharedSecret: shared) else { continue }
            return PairVerifySecrets(pairVerifyKeys: keys, session: DirectionalSessionKeys(keys.session), source: source)
        }
        let write = keyLog.secret(.controlWriteKey, for: controllerKey).flatMap { try? ChaCha20Poly1305.Key($0) }
        let read = keyLog.secret(.controlReadKey, for: controllerKey).flatMap { try? ChaCha20Poly1305.Key($0) }
        let session = DirectionalSessionKeys(controllerToAccessory: write, accessoryToController: read)
        return session.isEmpty ? nil : PairVerifySecrets(pairVerifyKeys: nil, session: session, source: .controlKeys)
    }

    /// The shared secret one kind of key-log entry gives for the exchange, computed only when
    /// asked for (an X25519 multiplication each).
    private static func sharedSecret(from source: KeySource, keyLog: KeyLog, controllerKey: [UInt8], accessoryKey: [UInt8]?) -> SecretBytes? {
        switch source {
        case .pairVerifySharedSecret:
            return keyLog.secret(.pairVerifySharedSecret, for: controllerKey)
        case .controllerEphemeralSecret:
            guard let accessoryKey, let secret = keyLog.secret(.controllerEphemeralSecret, for: controllerKey) else { return nil }
            return try? X25519.PrivateKey(secret).sharedSecret(with: accessoryKey.span.bytes)
        case .accessoryEphemeralSecret:
            guard let accessoryKey, let secret = keyLog.secret(.accessoryEphemeralSecret, for: accessoryKey) else { return nil }
            return try? X25519.PrivateKey(secret).sharedSecret(with: controllerKey.span.bytes)
        case .controlKeys, .pairSetupSessionKey:
            return nil
        }
    }
}
