import Testing
import HAPCrypto

@Suite struct HAPFrameEncryptorTests {
    let accessoryToController: ChaCha20Poly1305.Key
    let controllerToAccessory: ChaCha20Poly1305.Key

    init() throws {
        accessoryToController = try ChaCha20Poly1305.Key(secret(HAPVectors.accessoryToControllerKey))
        controllerToAccessory = try ChaCha20Poly1305.Key(secret(HAPVectors.controllerToAccessoryKey))
    }

    @Test func reproducesTheFactSheetFrames() throws {
        var controller = HAPFrameEncryptor(key: controllerToAccessory)
        #expect(try controller.seal(ascii(HAPVectors.frame1Plaintext).span.bytes) == hex(HAPVectors.frame1))
        var accessory = HAPFrameEncryptor(key: accessoryToController)
        #expect(try accessory.seal(ascii(HAPVectors.frame2And3Plaintext).span.bytes) == hex(HAPVectors.frame2))
        #expect(try accessory.seal(ascii(HAPVectors.frame2And3Plaintext).span.bytes) == hex(HAPVectors.frame3))
        #expect(accessory.nextCounter == 2)
    }

    @Test func cutsLongPlaintextIntoFramesOfAtMost1024Bytes() throws {
        let plaintext = [UInt8](repeating: 0x41, count: 2500)
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory)
        let bytes = try encryptor.seal(plaintext.span.bytes)
        #expect(bytes.count == 2500 + 3 * 18)
        var decryptor = HAPFrameDecryptor(key: controllerToAccessory)
        let frames = try decryptor.collect([bytes])
        #expect(frames.map(\.declaredLength) == [1024, 1024, 452])
        #expect(frames.map(\.counter) == [0, 1, 2])
        #expect(frames.flatMap(\.plaintext) == plaintext)
    }

    @Test func emptyPlaintextGivesNoFramesButAnEmptyFrameCanBeSealed() throws {
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory)
        #expect(try encryptor.seal([UInt8]().span.bytes).isEmpty)
        var output = [UInt8](repeating: 0xEE, count: 18)
        let written = try output.withUnsafeMutableBytes { try encryptor.sealFrame(UnsafeRawBufferPointer(start: nil, count: 0), into: $0) }
        #expect(written == 18)
        #expect(output.prefix(2) == [0, 0])
        #expect(encryptor.nextCounter == 1)
    }

    @Test func sealFrameWritesIntoTheCallersBuffer() throws {
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory)
        let plaintext = ascii(HAPVectors.frame1Plaintext)
        var output = [UInt8](repeating: 0, count: 100)
        let written = try plaintext.withUnsafeBytes { plaintext in
            try output.withUnsafeMutableBytes { try encryptor.sealFrame(plaintext, into: $0) }
        }
        #expect(Array(output.prefix(written)) == hex(HAPVectors.frame1))
    }

    @Test func sealFrameRefusesAShortBufferOrAnUndeclarableLength() {
        var encryptor = HAPFrameEncryptor(key: controllerToAccessory)
        var output = [UInt8](repeating: 0, count: 20)
        #expect(throws: CryptoError(.bufferTooSmall, "")) {
            try [UInt8](repeating: 1, count: 3).withUnsafeBytes { plaintext in
                try output.withUnsafeMutableBytes { try encryptor.sealFrame(plaintext, into: $0) }
            }
        }
        var large = [UInt8](repeating: 0, count: 65536 + 18)
        #expect(throws: CryptoError(.invalidSize, "")) {
            try [UInt8](repeating: 1, count: 65536).withUnsafeBytes { plaintext in
                try large.withUnsafeMutableBytes { try encryptor.sealFrame(plaintext, into: $0) }
            }
        }
        #expect(encryptor.nextCounter == 0)
        #expect(throws: CryptoError(.invalidSize, "")) { try encryptor.seal([1].span.bytes, maximumFrameLength: 0) }
    }
}
