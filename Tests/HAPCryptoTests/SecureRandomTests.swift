import Testing
import HAPCrypto

@Suite struct SecureRandomTests {
    @Test func bytesHaveTheRequestedCountAndAreNotConstant() {
        let first = SecureRandom.bytes(count: 64)
        let second = SecureRandom.bytes(count: 64)
        #expect(first.count == 64)
        #expect(first != second)
        #expect(Set(first).count > 1)
        #expect(SecureRandom.bytes(count: 0).isEmpty)
    }

    @Test func fillOverwritesEveryByteOfTheBuffer() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        buffer.withUnsafeMutableBytes { SecureRandom.fill($0) }
        // 4096 random bytes are all zero with probability 2^-32768; a short fill would leave
        // the tail zero.
        #expect(buffer.suffix(64).contains { $0 != 0 })
        #expect(buffer.prefix(64).contains { $0 != 0 })
    }
}
