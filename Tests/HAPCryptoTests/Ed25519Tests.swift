import Testing
import HAPCrypto

@Suite struct Ed25519Tests {
    // RFC 8032 §7.1, TEST 1 (empty message) and TEST 2 (one byte).
    static let rfcVectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ]

    @Test(arguments: 0..<2) func signingFromASeedMatchesRFC8032(vector: Int) throws {
        let (seed, publicKey, message, signature) = Self.rfcVectors[vector]
        let key = try Ed25519.SigningKey(seed: secret(seed))
        #expect(key.publicKey.bytes == hex(publicKey))
        #expect(key.signature(for: hex(message).span.bytes) == hex(signature))
    }

    @Test(arguments: 0..<2) func verificationAcceptsTheRFC8032Signature(vector: Int) throws {
        let (_, publicKey, message, signature) = Self.rfcVectors[vector]
        let key = try Ed25519.PublicKey(hex(publicKey))
        try key.verify(signature: hex(signature).span.bytes, for: hex(message).span.bytes)
    }

    @Test func aTamperedMessageOrSignatureFailsVerification() throws {
        let (_, publicKey, _, signature) = Self.rfcVectors[1]
        let key = try Ed25519.PublicKey(hex(publicKey))
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try key.verify(signature: hex(signature).span.bytes, for: [0x73].span.bytes)
        }
        var tampered = hex(signature)
        tampered[10] ^= 0x40
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try key.verify(signature: tampered.span.bytes, for: [0x72].span.bytes)
        }
        let isValid = key.isValidSignature(tampered.span.bytes, for: [0x72].span.bytes)
        #expect(!isValid)
    }

    @Test func anAllZeroPublicKeyFailsCleanlyAsAnInvalidKey() throws {
        let zeroKey = try Ed25519.PublicKey([UInt8](repeating: 0, count: 32))
        #expect(zeroKey.isAllZero)
        do {
            try zeroKey.verify(signature: [UInt8](repeating: 0, count: 64).span.bytes, for: [UInt8]().span.bytes)
            Issue.record("an all-zero key verified a signature")
        } catch {
            #expect(error.code == .invalidPublicKey)
            #expect(error.reason.contains("all zero"))
        }
    }

    @Test func wronglySizedKeysAndSignaturesAreRefused() throws {
        #expect(throws: CryptoError(.invalidSize, "")) { try Ed25519.PublicKey([UInt8](repeating: 7, count: 33)) }
        #expect(throws: CryptoError(.invalidSize, "")) { try Ed25519.SigningKey(seed: SecretBytes([1, 2, 3])) }
        let key = try Ed25519.PublicKey(hex(Self.rfcVectors[0].publicKey))
        #expect(throws: CryptoError(.invalidSize, "")) {
            try key.verify(signature: [UInt8](repeating: 0, count: 63).span.bytes, for: [UInt8]().span.bytes)
        }
    }

    @Test func aFreshKeySignsWhatItsPublicKeyVerifies() throws {
        let key = Ed25519.SigningKey()
        let message = ascii("GET /accessories")
        let signature = key.signature(for: message.span.bytes)
        try key.publicKey.verify(signature: signature.span.bytes, for: message.span.bytes)
        #expect(!String(describing: key).contains(hexString(key.seed.revealedBytes())))
    }
}
