import TLV8

/// Recognises a pair-resume on the Pair Verify characteristic, which `PairingFollower` reads as
/// a pair-verify: M1 with Method 6 (Pair Resume), the controller's fresh X25519 public key and
/// the session ID of the session it resumes; M2 with State 2 and Method 6 secures the
/// connection at once — there is no M3 or M4 (HomeKitADK HAPPairingPairVerify.c; aiohomekit
/// protocol/__init__.py; captures/ble/README.md).
///
/// The session keys come from the resumed shared secret, which the key log gives under the M1
/// public key (docs/keylog.md, HAP over Bluetooth LE).
struct PairResume {
    // HAP: Method 6 = Pair Resume (HomeKitADK HAPPairing.h).
    static let resumeMethod: UInt8 = 6

    /// The public key of a resume M1 waiting for its M2.
    private(set) var pendingControllerKey: [UInt8]?

    /// Takes a pair-verify request body; remembers it when it is a resume M1.
    mutating func request(_ body: TLV8Body) {
        pendingControllerKey = nil
        guard body.first(.state)?.value == [1], body.first(.method)?.value == [Self.resumeMethod],
              let key = body.first(.publicKey)?.value, key.count == 32 else { return }
        pendingControllerKey = Array(key)
    }

    /// Takes a pair-verify response body; returns the resume M1's public key when this is the
    /// M2 that accepts the resume.
    mutating func response(_ body: TLV8Body) -> [UInt8]? {
        defer { pendingControllerKey = nil }
        guard let key = pendingControllerKey, body.first(.state)?.value == [2],
              body.first(.method)?.value == [Self.resumeMethod] else { return nil }
        return key
    }
}
