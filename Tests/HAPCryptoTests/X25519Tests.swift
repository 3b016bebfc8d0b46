import Testing
import HAPCrypto

@Suite struct X25519Tests {
    @Test func publicKeysMatchRFC7748Section6_1() throws {
        let controller = try X25519.PrivateKey(secret(HAPVectors.controllerSecretKey))
        let accessory = try X25519.PrivateKey(secret(HAPVectors.accessorySecretKey))
        #expect(controller.publicKey == hex(HAPVectors.controllerPublicKey))
        #expect(accessory.publicKey == hex(HAPVectors.accessoryPublicKey))
    }

    @Test func bothSidesComputeTheRFC7748SharedSecret() throws {
        let controller = try X25519.PrivateKey(secret(HAPVectors.controllerSecretKey))
        let accessory = try X25519.PrivateKey(secret(HAPVectors.accessorySecretKey))
        let controllerSide = try controller.sharedSecret(with: hex(HAPVectors.accessoryPublicKey).span.bytes)
        let accessorySide = try accessory.sharedSecret(with: hex(HAPVectors.controllerPublicKey).span.bytes)
        #expect(controllerSide.revealedBytes() == hex(HAPVectors.sharedSecret))
        #expect(controllerSide == accessorySide)
    }

    @Test func aSmallOrderPublicKeyIsRefusedInsteadOfGivingAZeroSecret() throws {
        let controller = try X25519.PrivateKey(secret(HAPVectors.controllerSecretKey))
        let zeroPoint = [UInt8](repeating: 0, count: 32)
        #expect(throws: CryptoError(.invalidPublicKey, "")) {
            try controller.sharedSecret(with: zeroPoint.span.bytes)
        }
    }

    @Test func keysOfTheWrongLengthAreRefused() throws {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try X25519.PrivateKey(SecretBytes([UInt8](repeating: 1, count: 31)))
        }
        let controller = try X25519.PrivateKey(secret(HAPVectors.controllerSecretKey))
        let shortKey = Array(hex(HAPVectors.accessoryPublicKey).prefix(31))
        #expect(throws: CryptoError(.invalidSize, "")) {
            try controller.sharedSecret(with: shortKey.span.bytes)
        }
    }

    @Test func freshKeysAgree() throws {
        let first = X25519.PrivateKey()
        let second = X25519.PrivateKey()
        let one = try first.sharedSecret(with: second.publicKey.span.bytes)
        let other = try second.sharedSecret(with: first.publicKey.span.bytes)
        #expect(one == other)
        #expect(!String(describing: first).contains(hexString(first.secret.revealedBytes())))
    }
}
