import HAPCrypto
import Testing
@testable import BLETransport

@Suite("HAP-BLE session cipher")
struct BLESessionCipherTests {
    static let key = ChaCha20Poly1305.Key.random()

    static func sealed(_ plaintext: [UInt8], counter: UInt64) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: plaintext.count + ChaCha20Poly1305.tagByteCount)
        _ = try plaintext.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { output in
                try ChaCha20Poly1305.seal(
                    input, key: key, nonce: ChaCha20Poly1305.Nonce(counter: counter), authenticating: UnsafeRawBufferPointer(start: nil, count: 0),
                    into: output)
            }
        }
        return output
    }

    @Test("Each value opens with the next counter from 0")
    func inOrder() throws {
        var cipher = BLESessionCipher(key: Self.key)
        #expect(cipher.open(try Self.sealed([1], counter: 0)) == .opened([1], counter: 0))
        #expect(cipher.open(try Self.sealed([2], counter: 1)) == .opened([2], counter: 1))
        #expect(cipher.nextCounter == 2)
    }

    @Test("A skipped counter opens and is told; a reused one too; anything else fails")
    func outOfOrder() throws {
        var cipher = BLESessionCipher(key: Self.key, skipWindow: 4)
        #expect(cipher.open(try Self.sealed([1], counter: 2)) == .openedAfterSkip([1], counter: 2, skipped: 2))
        #expect(cipher.open(try Self.sealed([2], counter: 2)) == .openedWithReusedCounter([2], counter: 2))
        #expect(cipher.open(try Self.sealed([3], counter: 9)) == .failed(dueCounter: 3))
        #expect(cipher.open([1, 2, 3]) == .failed(dueCounter: 3))
        #expect(cipher.nextCounter == 3)
    }
}
