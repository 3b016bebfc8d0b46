import Testing
import HAPCrypto

@Suite struct SHA512Tests {
    @Test func hashesTheFIPSAbcVector() {
        let digest = SHA512.hash(ascii("abc").span.bytes)
        #expect(digest == hex("""
            ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd
            454d4423643ce80e2a9ac94fa54ca49f
            """))
    }

    @Test func incrementalHashingEqualsOneShot() {
        let message = ascii("Pair-Setup:111-22-333")
        var hasher = SHA512()
        hasher.update(Array(message.prefix(5)).span.bytes)
        hasher.update([UInt8]().span.bytes)
        hasher.update(Array(message.dropFirst(5)).span.bytes)
        #expect(hasher.finalize() == SHA512.hash(message.span.bytes))
    }

    @Test func theEmptyMessageHasItsKnownDigest() {
        let digest = SHA512.hash([UInt8]().span.bytes)
        #expect(hexString(digest.prefix(8)) == "cf83e1357eefb8bd")
        #expect(digest.count == SHA512.byteCount)
    }
}
