import HAPCore
import HAPCrypto
import HAPEvents

/// The three sealed streams of a HAP-over-CoAP session, each with its own key and counter
/// (aiohomekit `controller/coap/connection.py` `EncryptionContext`; docs/coap.md "Session keys,
/// nonce and counters").
enum CoAPBodyStream: String, CaseIterable, Sendable {
    /// Controller→accessory request bodies: `CONTROL_WRITE_KEY`.
    case request
    /// Accessory→controller response bodies: `CONTROL_READ_KEY`.
    case response
    /// The accessory's event PUTs: `EVENT_READ_KEY` (salt `Event-Salt`, info `Event-Read-Encryption-Key`).
    case event

    var direction: HAPDirection { self == .request ? .controllerToAccessory : .accessoryToController }
}

/// Opens the bodies of one session: each CoAP payload on `/` is one ChaCha20-Poly1305 message,
/// no associated data, nonce = 4 zero bytes ‖ the stream's counter as 64-bit little-endian, and
/// every body steps its stream's counter once (aiohomekit `EncryptionContext.encrypt/decrypt`,
/// `struct.pack("=4xQ", counter)`).
///
/// A body that does not open under the expected counter is tried under the counters around it,
/// at most `maximumDrift` on each side, and then under 0 (aiohomekit `_decrypt_response` resets
/// both counters to 0 as its last resort): the counter that opens it is where the sender was, and
/// the stream goes on from there. The search is bounded, so a hostile body costs at most
/// 2 × `maximumDrift` + 2 attempts.
struct CoAPSessionCipher {
    private var keys: [CoAPBodyStream: ChaCha20Poly1305.Key]
    private var nextCounters: [CoAPBodyStream: UInt64] = [:]
    let maximumDrift: Int

    init(keys: [CoAPBodyStream: ChaCha20Poly1305.Key], maximumDrift: Int) {
        self.keys = keys
        self.maximumDrift = maximumDrift
    }

    /// The streams this session has keys for.
    var decryptable: Set<CoAPBodyStream> { Set(keys.keys) }

    func expectedCounter(_ stream: CoAPBodyStream) -> UInt64 { nextCounters[stream, default: 0] }

    enum Outcome {
        /// Opened under `counter`; `expected` is the counter that was due.
        case opened(plaintext: [UInt8], counter: UInt64, expected: UInt64)
        case noKey
        /// No counter within the search opened it: not this key's, or corrupted.
        case failed(expected: UInt64, tried: Int)
    }

    mutating func open(_ sealed: [UInt8], _ stream: CoAPBodyStream) -> Outcome {
        guard let key = keys[stream] else { return .noKey }
        let expected = expectedCounter(stream)
        var tried = 0
        for counter in Self.searchOrder(expected: expected, maximumDrift: maximumDrift) {
            tried += 1
            guard let plaintext = try? ChaCha20Poly1305.open(
                sealed.span.bytes, key: key, nonce: ChaCha20Poly1305.Nonce(counter: counter)) else { continue }
            nextCounters[stream] = counter &+ 1
            return .opened(plaintext: plaintext, counter: counter, expected: expected)
        }
        return .failed(expected: expected, tried: tried)
    }

    /// The expected counter, then ever further after it and before it, then 0.
    static func searchOrder(expected: UInt64, maximumDrift: Int) -> [UInt64] {
        var order: [UInt64] = [expected]
        if maximumDrift > 0 {
            for distance in 1 ... UInt64(maximumDrift) {
                let (later, overflow) = expected.addingReportingOverflow(distance)
                if !overflow { order.append(later) }
            }
            for distance in 1 ... UInt64(maximumDrift) where distance <= expected { order.append(expected - distance) }
        }
        if expected > UInt64(maximumDrift) { order.append(0) }
        return order
    }
}

extension CoAPSessionCipher {
    /// How far from the due counter aiohomekit looks for a response's counter: −5…−1, then
    /// +1…+5, then 0 after setting both counters to 0 (aiohomekit 4.0.1
    /// `controller/coap/connection.py` `_decrypt_response`).
    static let controllerResponseSearchDistance: UInt64 = 5

    /// How long aiohomekit waits for the response to an encrypted POST before it raises
    /// "Request timeout" and drops the session (aiohomekit 4.0.1 `controller/coap/connection.py`
    /// `EncryptionContext.post_bytes(timeout=16.0)`). aiocoap's own bound is longer: a
    /// confirmable request is given up MAX_TRANSMIT_WAIT (93 s) after it was first sent
    /// (RFC 7252 §4.8.2), so the controller's timeout is the one a late answer misses.
    static let controllerRequestTimeoutSeconds = 16.0

    /// Whether the controller reads a body of `stream` sealed under `opened` where `expected`
    /// was due. Responses: within aiohomekit's search, or 0 (its last resort). Events: never,
    /// aiohomekit tries only the due counter and answers 4.04 (`EventResource.render_put`).
    /// Requests: nil, the accessory's search is not public.
    static func controllerRecovers(_ stream: CoAPBodyStream, expected: UInt64, opened: UInt64) -> Bool? {
        switch stream {
        case .request: return nil
        case .event: return false
        case .response:
            let distance = opened > expected ? opened - expected : expected - opened
            return distance <= controllerResponseSearchDistance || opened == 0
        }
    }

    /// The event key of a session: the key log's `EVENT_READ_KEY`, else derived from the session's
    /// shared secret (given, or computed from an ephemeral secret and the other side's public
    /// key): HKDF-SHA-512, salt `Event-Salt`, info `Event-Read-Encryption-Key` (aiohomekit
    /// `do_pair_verify`; docs/keylog.md "HAP over Thread (CoAP)").
    static func eventKey(keyLog: KeyLog, controllerKey: [UInt8], accessoryKey: [UInt8]?) -> ChaCha20Poly1305.Key? {
        if let logged = keyLog.secret(.eventReadKey, for: controllerKey) { return try? ChaCha20Poly1305.Key(logged) }
        var shared = keyLog.secret(.pairVerifySharedSecret, for: controllerKey)
        if shared == nil, let accessoryKey, let secret = keyLog.secret(.controllerEphemeralSecret, for: controllerKey) {
            shared = try? X25519.PrivateKey(secret).sharedSecret(with: accessoryKey.span.bytes)
        }
        if shared == nil, let accessoryKey, let secret = keyLog.secret(.accessoryEphemeralSecret, for: accessoryKey) {
            shared = try? X25519.PrivateKey(secret).sharedSecret(with: controllerKey.span.bytes)
        }
        guard let shared else { return nil }
        let salt = Array("Event-Salt".utf8)
        let info = Array("Event-Read-Encryption-Key".utf8)
        guard let derived = try? HKDFSHA512.deriveKey(inputKeyMaterial: shared, salt: salt.span.bytes, info: info.span.bytes) else { return nil }
        return try? ChaCha20Poly1305.Key(derived)
    }
}
