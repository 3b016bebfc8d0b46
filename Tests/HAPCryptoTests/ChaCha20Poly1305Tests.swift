import Testing
import HAPCrypto

@Suite struct ChaCha20Poly1305Tests {
    // RFC 8439 §2.8.2.
    static let rfcPlaintext = ascii("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
    static let rfcAdditionalData = hex("50515253c0c1c2c3c4c5c6c7")
    static let rfcNonce = hex("070000004041424344454647")
    static let rfcCiphertext = hex("""
        d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b
        1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc
        3ff4def08e4b7a9de576d26586cec64b6116
        """)
    static let rfcTag = hex("1ae10b594f09e26a7e902ecbd0600691")

    let rfcKey: ChaCha20Poly1305.Key
    let rfcNonce: ChaCha20Poly1305.Nonce

    init() throws {
        rfcKey = try ChaCha20Poly1305.Key(SecretBytes(Array(0x80...0x9f)))
        rfcNonce = try ChaCha20Poly1305.Nonce(Self.rfcNonce.span.bytes)
    }

    @Test func sealsTheRFC8439Section2_8_2Vector() {
        let sealed = ChaCha20Poly1305.seal(
            Self.rfcPlaintext.span.bytes, key: rfcKey, nonce: rfcNonce, authenticating: Self.rfcAdditionalData.span.bytes)
        #expect(sealed == Self.rfcCiphertext + Self.rfcTag)
    }

    @Test func opensTheRFC8439Section2_8_2Vector() throws {
        let sealed = Self.rfcCiphertext + Self.rfcTag
        let opened = try ChaCha20Poly1305.open(
            sealed.span.bytes, key: rfcKey, nonce: rfcNonce, authenticating: Self.rfcAdditionalData.span.bytes)
        #expect(opened == Self.rfcPlaintext)
    }

    @Test func anAlteredByteAnywhereFailsAuthentication() {
        let sealed = Self.rfcCiphertext + Self.rfcTag
        for index in [0, 57, sealed.count - 16, sealed.count - 1] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: CryptoError(.authenticationFailed, "")) {
                try ChaCha20Poly1305.open(altered.span.bytes, key: rfcKey, nonce: rfcNonce, authenticating: Self.rfcAdditionalData.span.bytes)
            }
        }
        var alteredData = Self.rfcAdditionalData
        alteredData[0] ^= 0x80
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try ChaCha20Poly1305.open(sealed.span.bytes, key: rfcKey, nonce: rfcNonce, authenticating: alteredData.span.bytes)
        }
    }

    @Test func sealedDataShorterThanATagIsAnInvalidSize() {
        #expect(throws: CryptoError(.invalidSize, "")) {
            try ChaCha20Poly1305.open([UInt8](repeating: 0, count: 15).span.bytes, key: rfcKey, nonce: rfcNonce)
        }
    }

    @Test func theBufferVariantsSealAndOpenWithoutAllocatingAndInPlace() throws {
        var buffer = [UInt8](repeating: 0, count: Self.rfcPlaintext.count + 16)
        buffer.replaceSubrange(0..<Self.rfcPlaintext.count, with: Self.rfcPlaintext)
        let plaintextCount = Self.rfcPlaintext.count
        let key = rfcKey, nonce = rfcNonce
        let additionalData = Self.rfcAdditionalData
        let sealedCount: Int = try buffer.withUnsafeMutableBytes { buffer in
            try additionalData.withUnsafeBytes { additionalData in
                try ChaCha20Poly1305.seal(
                    UnsafeRawBufferPointer(rebasing: buffer[..<plaintextCount]), key: key, nonce: nonce,
                    authenticating: additionalData, into: buffer)
            }
        }
        #expect(sealedCount == buffer.count)
        #expect(buffer == Self.rfcCiphertext + Self.rfcTag)
        let openedCount: Int = try buffer.withUnsafeMutableBytes { buffer in
            try additionalData.withUnsafeBytes { additionalData in
                try ChaCha20Poly1305.open(UnsafeRawBufferPointer(buffer), key: key, nonce: nonce, authenticating: additionalData, into: buffer)
            }
        }
        #expect(openedCount == plaintextCount)
        #expect(Array(buffer.prefix(plaintextCount)) == Self.rfcPlaintext)
    }

    @Test func theBufferVariantsRefuseAShortOutput() {
        let plaintext = Self.rfcPlaintext
        let key = rfcKey, nonce = rfcNonce
        var output = [UInt8](repeating: 0, count: plaintext.count + 15)
        #expect(throws: CryptoError(.bufferTooSmall, "")) {
            try plaintext.withUnsafeBytes { plaintext in
                try output.withUnsafeMutableBytes { output in
                    _ = try ChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, authenticating: UnsafeRawBufferPointer(start: nil, count: 0), into: output)
                }
            }
        }
        let sealed = Self.rfcCiphertext + Self.rfcTag
        var shortOutput = [UInt8](repeating: 0, count: Self.rfcCiphertext.count - 1)
        #expect(throws: CryptoError(.bufferTooSmall, "")) {
            try sealed.withUnsafeBytes { sealed in
                try shortOutput.withUnsafeMutableBytes { output in
                    _ = try ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: UnsafeRawBufferPointer(start: nil, count: 0), into: output)
                }
            }
        }
    }

    @Test func theOriginalConstructionsTagIsRejected() throws {
        // HAP frame 1 with the tag the original (64-bit nonce) ChaCha20-Poly1305 gives: same
        // ciphertext, different tag (PROTOCOL §8 #2). The IETF open must refuse it.
        let frame = hex(HAPVectors.frame1)
        let wrongTagged = Array(frame[2..<(frame.count - 16)]) + hex(GeneratedVectors.frame1OriginalConstructionTag)
        let key = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
        let lengthField = Array(frame.prefix(2))
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try ChaCha20Poly1305.open(wrongTagged.span.bytes, key: key, nonce: .init(counter: 0), authenticating: lengthField.span.bytes)
        }
        let opened = try ChaCha20Poly1305.open(Array(frame.dropFirst(2)).span.bytes, key: key, nonce: .init(counter: 0), authenticating: lengthField.span.bytes)
        #expect(opened == ascii(HAPVectors.frame1Plaintext))
    }

    @Test func keysMustBe32Bytes() {
        #expect(throws: CryptoError(.invalidSize, "")) { try ChaCha20Poly1305.Key(SecretBytes([UInt8](repeating: 0, count: 16))) }
        #expect(ChaCha20Poly1305.Key.random() != ChaCha20Poly1305.Key.random())
    }
}

@Suite struct ChaCha20Poly1305NonceTests {
    @Test func aFrameCounterBecomesFourZeroBytesAndALittleEndianCounter() {
        #expect(ChaCha20Poly1305.Nonce(counter: 0).bytes == [UInt8](repeating: 0, count: 12))
        #expect(ChaCha20Poly1305.Nonce(counter: 0x0102_0304_0506_0708).bytes == hex("00000000 0807060504030201"))
        #expect(ChaCha20Poly1305.Nonce(counter: 1).description == "000000000100000000000000")
    }

    @Test func aNonceFromBytesKeepsThemInOrder() throws {
        let nonce = try ChaCha20Poly1305.Nonce(hex("070000004041424344454647").span.bytes)
        #expect(nonce.bytes == hex("070000004041424344454647"))
        #expect(nonce != ChaCha20Poly1305.Nonce(counter: 0))
    }

    @Test func anEightByteNonceIsRefusedRatherThanPadded() {
        // PROTOCOL §8 #1: short nonces must become 12 bytes explicitly.
        #expect(throws: CryptoError(.invalidSize, "")) {
            try ChaCha20Poly1305.Nonce(ascii("PV-Msg02").span.bytes)
        }
    }
}

@Suite("ChaCha20-Poly1305 with a truncated tag (HAP-BLE encrypted notifications)")
struct ChaCha20Poly1305TruncatedTagTests {
    static let nonce = ChaCha20Poly1305.Nonce(counter: 4)
    static let additionalData: [UInt8] = [1, 2, 3, 4, 5, 6]
    let key: ChaCha20Poly1305.Key

    init() throws {
        key = try ChaCha20Poly1305.Key(SecretBytes([UInt8](repeating: 7, count: 32)))
    }

    @Test("RFC 8439 §2.8.2: the first 4 bytes of the vector's tag open its ciphertext")
    func rfcVector() throws {
        let key = try ChaCha20Poly1305.Key(SecretBytes(Array(0x80...0x9f)))
        let nonce = try ChaCha20Poly1305.Nonce(ChaCha20Poly1305Tests.rfcNonce.span.bytes)
        #expect(ChaCha20Poly1305.open(ChaCha20Poly1305Tests.rfcCiphertext, truncatedTag: Array(ChaCha20Poly1305Tests.rfcTag.prefix(4)), key: key,
                                      nonce: nonce, authenticating: ChaCha20Poly1305Tests.rfcAdditionalData) == ChaCha20Poly1305Tests.rfcPlaintext)
    }

    @Test("The first 4 tag bytes of a sealed message open it; a changed byte of ciphertext, tag or AAD does not")
    func truncated() {
        let plaintext: [UInt8] = Array(0 ..< 12)
        let sealed = ChaCha20Poly1305.seal(plaintext.span.bytes, key: key, nonce: Self.nonce, authenticating: Self.additionalData.span.bytes)
        let ciphertext = Array(sealed[..<12])
        let tag = Array(sealed[12..<16])
        #expect(ChaCha20Poly1305.open(ciphertext, truncatedTag: tag, key: key, nonce: Self.nonce, authenticating: Self.additionalData) == plaintext)
        var changed = ciphertext
        changed[0] ^= 1
        #expect(ChaCha20Poly1305.open(changed, truncatedTag: tag, key: key, nonce: Self.nonce, authenticating: Self.additionalData) == nil)
        var changedTag = tag
        changedTag[3] ^= 0x80
        #expect(ChaCha20Poly1305.open(ciphertext, truncatedTag: changedTag, key: key, nonce: Self.nonce, authenticating: Self.additionalData) == nil)
        #expect(ChaCha20Poly1305.open(ciphertext, truncatedTag: tag, key: key, nonce: Self.nonce, authenticating: [1, 2, 3, 4, 5, 7]) == nil)
        #expect(ChaCha20Poly1305.open(ciphertext, truncatedTag: [], key: key, nonce: Self.nonce, authenticating: Self.additionalData) == nil)
    }
}
