import HAPCrypto
import TLV8
import WireParsing

/// One side of a pairing as tests build it: a pairing identifier and a long-term Ed25519 key
/// made from a one-byte seed, so that every run builds the same bytes.
public struct PairingParty: Sendable {
    public let identifier: String
    public let signingKey: Ed25519.SigningKey

    public init(identifier: String, seed: UInt8) {
        self.identifier = identifier
        // A 32-byte seed is all `SigningKey` asks for.
        signingKey = try! Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: seed, count: Ed25519.seedByteCount)))
    }

    /// The long-term public key (LTPK) the party sends in pair-setup M5 or M6.
    public var longTermPublicKey: [UInt8] { signingKey.publicKey.bytes }

    /// A controller with a UUID identifier, as iOS writes them.
    public static let controller = PairingParty(identifier: "5B0D3C62-1111-2222-3333-444455556666", seed: 0xC1)
    /// An accessory, identified by its device id.
    public static let accessory = PairingParty(identifier: "1A:2B:3C:4D:5E:6F", seed: 0xA1)

    /// `ACCESSORY_LTPK <id> <key>` or `CONTROLLER_LTPK <id> <key>` (docs/keylog.md).
    public func keyLogLine(_ label: KeyLogLabel) -> String {
        "\(label.rawValue) \(identifier) \(Hex.encode(longTermPublicKey))"
    }

    /// The key-log labels a party's long-term key is logged under.
    public enum KeyLogLabel: String, Sendable {
        case accessoryLTPK = "ACCESSORY_LTPK"
        case controllerLTPK = "CONTROLLER_LTPK"
    }
}

/// A pair-setup (HAP: Pair Setup M1–M6) whose every message agrees with one SRP session key K:
/// the proofs are computed from the transcript (salt, A, B, K), the M5 and M6 sub-TLVs are
/// signed by the parties and sealed with the key derived from K. No SRP arithmetic is done —
/// hapscope checks proofs against a logged K, so any A and B in range make a consistent
/// exchange.
///
/// Every value is a `var`: a test changes one and builds the messages that follow from it.
public struct PairSetupTranscript: Sendable {
    public var salt: [UInt8]
    /// The controller's SRP public value A, as sent in M3.
    public var controllerPublicKey: [UInt8]
    /// The accessory's SRP public value B, as sent in M2.
    public var accessoryPublicKey: [UInt8]
    /// K = H(S), 64 bytes.
    public var sessionKey: SecretBytes
    public var controller: PairingParty
    public var accessory: PairingParty
    public var method: PairingMethod?
    public var flags: PairingFlags?

    /// A transcript whose values all derive from `seed`: 16 bytes of salt, 384-byte A and B
    /// below N (HAP's 3072-bit prime begins with 0xFF), a 64-byte K.
    public init(
        seed: UInt8 = 1, controller: PairingParty = .controller, accessory: PairingParty = .accessory,
        method: PairingMethod? = .pairSetup, flags: PairingFlags? = nil
    ) {
        func bytes(_ count: Int, _ salt: UInt8) -> [UInt8] {
            (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ Int(salt)) | 1 }
        }
        self.salt = bytes(SRPGroup.saltByteCount, 1)
        controllerPublicKey = [0x11] + bytes(SRPGroup.primeByteCount - 1, 2)
        accessoryPublicKey = [0x22] + bytes(SRPGroup.primeByteCount - 1, 3)
        sessionKey = SecretBytes(bytes(SRPGroup.sessionKeyByteCount, 4))
        self.controller = controller
        self.accessory = accessory
        self.method = method
        self.flags = flags
    }

    /// `PAIR_SETUP_SESSION_KEY <first 32 bytes of A> <K>` (docs/keylog.md).
    public var keyLogLine: String {
        "PAIR_SETUP_SESSION_KEY \(Hex.encode(controllerPublicKey.prefix(32))) \(Hex.encode(sessionKey.revealedBytes()))"
    }

    /// The keys HAP derives from K (the M5/M6 encryption key, the signing material, the
    /// transient session keys).
    public var keys: PairSetupKeys {
        // K is 64 bytes, the one thing the derivation checks.
        try! PairSetupKeys(srpSessionKey: sessionKey)
    }

    private var transcript: SRPTranscript {
        // K is 64 bytes, the one thing the transcript checks.
        try! SRPTranscript(
            salt: salt.span.bytes, controllerPublicKey: controllerPublicKey.span.bytes,
            accessoryPublicKey: accessoryPublicKey.span.bytes, sessionKey: sessionKey)
    }

    /// The controller's proof M1 = H(H(N) xor H(g) ‖ H(I) ‖ s ‖ A ‖ B ‖ K), values as sent.
    public var controllerProof: [UInt8] { transcript.controllerProof() }

    /// The accessory's proof M2 = H(A ‖ M1 ‖ K).
    public var accessoryProof: [UInt8] {
        let proof = controllerProof
        return transcript.accessoryProof(controllerProof: proof.span.bytes)
    }

    // HAP: Pair Setup M1
    public func m1() -> [UInt8] {
        PairSetupMessage.m1(.init(method: method, flags: flags)).encoded()
    }

    // HAP: Pair Setup M2
    public func m2() -> [UInt8] {
        PairSetupMessage.m2(.init(publicKey: accessoryPublicKey, salt: salt)).encoded()
    }

    /// HAP: Pair Setup M3, with the right proof unless `proof` says otherwise.
    public func m3(proof: [UInt8]? = nil) -> [UInt8] {
        PairSetupMessage.m3(.init(publicKey: controllerPublicKey, proof: proof ?? controllerProof)).encoded()
    }

    /// HAP: Pair Setup M4, with the right proof unless `proof` says otherwise.
    public func m4(proof: [UInt8]? = nil) -> [UInt8] {
        PairSetupMessage.m4(.init(proof: proof ?? accessoryProof)).encoded()
    }

    /// The plaintext of M5's EncryptedData: the controller's identifier, LTPK and signature
    /// over iOSDeviceX ‖ iOSDevicePairingID ‖ iOSDeviceLTPK.
    public func controllerSubTLV() -> PairingSubTLV {
        let signed = try! PairingSignedInfo.pairSetupM5(
            controllerSignX: keys.controllerSignX, controllerPairingID: Array(controller.identifier.utf8).span.bytes,
            controllerLongTermPublicKey: controller.signingKey.publicKey)
        return PairingSubTLV(
            identifier: PairingIdentifier(controller.identifier), publicKey: controller.longTermPublicKey,
            signature: signed.signature(signedBy: controller.signingKey))
    }

    /// The plaintext of M6's EncryptedData: the accessory's identifier, LTPK and signature
    /// over AccessoryX ‖ AccessoryPairingID ‖ AccessoryLTPK.
    public func accessorySubTLV() -> PairingSubTLV {
        let signed = try! PairingSignedInfo.pairSetupM6(
            accessorySignX: keys.accessorySignX, accessoryPairingID: Array(accessory.identifier.utf8).span.bytes,
            accessoryLongTermPublicKey: accessory.signingKey.publicKey)
        return PairingSubTLV(
            identifier: PairingIdentifier(accessory.identifier), publicKey: accessory.longTermPublicKey,
            signature: signed.signature(signedBy: accessory.signingKey))
    }

    /// HAP: Pair Setup M5: `inner` (the controller's sub-TLV unless given) sealed with `key`
    /// (the one derived from K unless given).
    public func m5(_ inner: PairingSubTLV? = nil, sealedWith key: ChaCha20Poly1305.Key? = nil) -> [UInt8] {
        let plaintext = (inner ?? controllerSubTLV()).encoded()
        let sealed = PairingEncryptedData.seal(plaintext.span.bytes, for: .pairSetupM5, key: key ?? keys.encryptionKey)
        return PairSetupMessage.m5(.init(encryptedData: sealed)).encoded()
    }

    /// HAP: Pair Setup M6: `inner` (the accessory's sub-TLV unless given) sealed with `key`.
    public func m6(_ inner: PairingSubTLV? = nil, sealedWith key: ChaCha20Poly1305.Key? = nil) -> [UInt8] {
        let plaintext = (inner ?? accessorySubTLV()).encoded()
        let sealed = PairingEncryptedData.seal(plaintext.span.bytes, for: .pairSetupM6, key: key ?? keys.encryptionKey)
        return PairSetupMessage.m6(.init(encryptedData: sealed)).encoded()
    }

    /// An accessory's refusal at `state` (HAP: kTLVType_Error).
    public static func error(at state: PairingState, _ code: PairingErrorCode, retryDelay: UInt64? = nil) -> [UInt8] {
        PairSetupMessage.error(PairingErrorResponse(state: state, error: code, retryDelay: retryDelay)).encoded()
    }
}

/// A pair-verify (HAP: Pair Verify M1–M4) between two parties with fixed ephemeral X25519 keys:
/// the shared secret, the M2 and M3 sub-TLVs signed by the parties' long-term keys and sealed with
/// the pair-verify key, the session keys, and the key-log lines that reveal each of them.
public struct PairVerifyTranscript: Sendable {
    public let controllerEphemeralKey: X25519.PrivateKey
    public let accessoryEphemeralKey: X25519.PrivateKey
    public var controller: PairingParty
    public var accessory: PairingParty

    /// Ephemeral keys made from `seed`, so that two transcripts with different seeds are two
    /// different sessions.
    public init(seed: UInt8 = 1, controller: PairingParty = .controller, accessory: PairingParty = .accessory) {
        // 32-byte secrets are all X25519 keys ask for.
        controllerEphemeralKey = try! X25519.PrivateKey(SecretBytes([UInt8](repeating: seed, count: X25519.byteCount)))
        accessoryEphemeralKey = try! X25519.PrivateKey(SecretBytes([UInt8](repeating: seed &+ 0x80, count: X25519.byteCount)))
        self.controller = controller
        self.accessory = accessory
    }

    /// The controller's ephemeral public key, sent in M1: what the key log's lines are keyed by.
    public var controllerPublicKey: [UInt8] { controllerEphemeralKey.publicKey }
    /// The accessory's ephemeral public key, sent in M2.
    public var accessoryPublicKey: [UInt8] { accessoryEphemeralKey.publicKey }

    /// X25519(controller's secret, accessory's public key).
    public var sharedSecret: SecretBytes {
        // Both keys come from `X25519.PrivateKey`: neither is a small-order point.
        try! controllerEphemeralKey.sharedSecret(with: accessoryPublicKey.span.bytes)
    }

    /// The pair-verify key for M2 and M3 and the session keys.
    public var keys: PairVerifyKeys { try! PairVerifyKeys(sharedSecret: sharedSecret) }
    public var sessionKeys: SessionKeys { keys.session }

    // MARK: The messages

    // HAP: Pair Verify M1
    public func m1() -> [UInt8] {
        PairVerifyMessage.m1(.init(publicKey: controllerPublicKey)).encoded()
    }

    /// The plaintext of M2's EncryptedData: the accessory's identifier and its signature over
    /// AccessoryCvPK ‖ AccessoryPairingID ‖ iOSDeviceCvPK.
    public func accessorySubTLV(signedBy signer: Ed25519.SigningKey? = nil) -> PairingSubTLV {
        let signed = try! PairingSignedInfo.pairVerifyM2(
            accessoryCurvePublicKey: accessoryPublicKey.span.bytes, accessoryPairingID: Array(accessory.identifier.utf8).span.bytes,
            controllerCurvePublicKey: controllerPublicKey.span.bytes)
        return PairingSubTLV(
            identifier: PairingIdentifier(accessory.identifier), signature: signed.signature(signedBy: signer ?? accessory.signingKey))
    }

    /// The plaintext of M3's EncryptedData: the controller's identifier and its signature over
    /// iOSDeviceCvPK ‖ iOSDevicePairingID ‖ AccessoryCvPK.
    public func controllerSubTLV(signedBy signer: Ed25519.SigningKey? = nil) -> PairingSubTLV {
        let signed = try! PairingSignedInfo.pairVerifyM3(
            controllerCurvePublicKey: controllerPublicKey.span.bytes, controllerPairingID: Array(controller.identifier.utf8).span.bytes,
            accessoryCurvePublicKey: accessoryPublicKey.span.bytes)
        return PairingSubTLV(
            identifier: PairingIdentifier(controller.identifier), signature: signed.signature(signedBy: signer ?? controller.signingKey))
    }

    /// HAP: Pair Verify M2: the accessory's public key (as given, else its own) and `inner` (its
    /// sub-TLV unless given) sealed with `key` (the pair-verify key unless given).
    public func m2(_ inner: PairingSubTLV? = nil, sealedWith key: ChaCha20Poly1305.Key? = nil, publicKey: [UInt8]? = nil) -> [UInt8] {
        let plaintext = (inner ?? accessorySubTLV()).encoded()
        let sealed = PairingEncryptedData.seal(plaintext.span.bytes, for: .pairVerifyM2, key: key ?? keys.encryptionKey)
        return PairVerifyMessage.m2(.init(publicKey: publicKey ?? accessoryPublicKey, encryptedData: sealed)).encoded()
    }

    /// HAP: Pair Verify M3: `inner` (the controller's sub-TLV unless given) sealed with `key`.
    public func m3(_ inner: PairingSubTLV? = nil, sealedWith key: ChaCha20Poly1305.Key? = nil) -> [UInt8] {
        let plaintext = (inner ?? controllerSubTLV()).encoded()
        let sealed = PairingEncryptedData.seal(plaintext.span.bytes, for: .pairVerifyM3, key: key ?? keys.encryptionKey)
        return PairVerifyMessage.m3(.init(encryptedData: sealed)).encoded()
    }

    // HAP: Pair Verify M4
    public func m4() -> [UInt8] {
        PairVerifyMessage.m4.encoded()
    }

    /// An accessory's refusal at `state`.
    public static func error(at state: PairingState, _ code: PairingErrorCode) -> [UInt8] {
        PairVerifyMessage.error(PairingErrorResponse(state: state, error: code)).encoded()
    }

    // MARK: The key log

    /// The key-log entries that open this pair-verify, one kind at a time (docs/keylog.md).
    public enum KeyLogEntry: Sendable, CaseIterable {
        case sharedSecret
        case controllerEphemeralSecret
        case accessoryEphemeralSecret
        case controlWriteKey
        case controlReadKey
    }

    /// The key-log line of `entry` for this pair-verify.
    public func keyLogLine(_ entry: KeyLogEntry) -> String {
        let controllerKey = Hex.encode(controllerPublicKey)
        return switch entry {
        case .sharedSecret:
            "PAIR_VERIFY_SHARED_SECRET \(controllerKey) \(Hex.encode(sharedSecret.revealedBytes()))"
        case .controllerEphemeralSecret:
            "CONTROLLER_EPHEMERAL_SECRET \(controllerKey) \(Hex.encode(controllerEphemeralKey.secret.revealedBytes()))"
        case .accessoryEphemeralSecret:
            "ACCESSORY_EPHEMERAL_SECRET \(Hex.encode(accessoryPublicKey)) \(Hex.encode(accessoryEphemeralKey.secret.revealedBytes()))"
        case .controlWriteKey:
            "CONTROL_WRITE_KEY \(controllerKey) \(Hex.encode(sessionKeys.controllerToAccessory.secret.revealedBytes()))"
        case .controlReadKey:
            "CONTROL_READ_KEY \(controllerKey) \(Hex.encode(sessionKeys.accessoryToController.secret.revealedBytes()))"
        }
    }
}

extension ChaCha20Poly1305.Key {
    /// A key that sealed nothing of any transcript: what a wrong key-log entry gives.
    public static let stranger = try! ChaCha20Poly1305.Key(SecretBytes([UInt8](repeating: 0x5A, count: ChaCha20Poly1305.keyByteCount)))
}

extension Ed25519.SigningKey {
    /// The long-term key of neither party: what a forged signature is made with.
    public static let stranger = PairingParty(identifier: "stranger", seed: 0x77).signingKey
}
