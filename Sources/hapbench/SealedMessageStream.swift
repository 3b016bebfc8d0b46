import HAPCrypto

/// One direction of a session that seals every message on its own, as HAP-BLE (each PDU
/// fragment) and HAP over CoAP (each body) do: ChaCha20-Poly1305 under the direction's key, no
/// associated data, nonce = 4 zero bytes ‖ the 64-bit little-endian counter, from 0 after the
/// session starts and stepped by each message (docs/keylog.md, BLE and CoAP sections).
struct SealedMessageStream {
    let key: ChaCha20Poly1305.Key
    private(set) var counter: UInt64 = 0

    init(key: ChaCha20Poly1305.Key) {
        self.key = key
    }

    /// A fresh random key from `random`, so that the same seed gives the same capture.
    init(random: inout SeededRandom) throws(CryptoError) {
        key = try ChaCha20Poly1305.Key(random.secret(32))
    }

    mutating func seal(_ plaintext: [UInt8]) -> [UInt8] {
        defer { counter += 1 }
        return ChaCha20Poly1305.seal(plaintext.span.bytes, key: key, nonce: ChaCha20Poly1305.Nonce(counter: counter))
    }
}
