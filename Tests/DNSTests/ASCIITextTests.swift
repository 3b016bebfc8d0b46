import Testing
@testable import DNS

@Suite struct ASCIITextTests {
    @Test func readsDecimalDigitsOnlyAndStopsAtOverflow() {
        #expect(ASCIIText.decimal(Array("65535".utf8)) == 65535)
        #expect(ASCIIText.decimal(Array("18446744073709551615".utf8)) == UInt64.max)
        #expect(ASCIIText.decimal(Array("18446744073709551616".utf8)) == nil)
        #expect(ASCIIText.decimal(Array("+1".utf8)) == nil)
        #expect(ASCIIText.decimal(Array(" 1".utf8)) == nil)
        #expect(ASCIIText.decimal([UInt8]()) == nil)
        #expect(ASCIIText.hasLeadingZero(Array("007".utf8)))
        #expect(!ASCIIText.hasLeadingZero(Array("0".utf8)))
    }

    @Test func decodesCanonicalBase64Only() {
        // HomeKitADK's setup hash vector: 7OSX + E1:91:1A:70:85:AA.
        #expect(ASCIIText.base64(Array("yf4bzw==".utf8)) == [0xC9, 0xFE, 0x1B, 0xCF])
        #expect(ASCIIText.base64(Array("TWFu".utf8)) == Array("Man".utf8))
        #expect(ASCIIText.base64(Array("TWE=".utf8)) == Array("Ma".utf8))
        #expect(ASCIIText.base64(Array("yf4bzw".utf8)) == nil)
        #expect(ASCIIText.base64(Array("yf4bzx==".utf8)) == nil)
        #expect(ASCIIText.base64(Array("yf=bzw==".utf8)) == nil)
        #expect(ASCIIText.base64(Array("y===".utf8)) == nil)
        #expect(ASCIIText.base64(Array("yf4b!w==".utf8)) == nil)
    }

    @Test func decodesHex() {
        #expect(ASCIIText.hexBytes(Array("0aFF".utf8)) == [0x0A, 0xFF])
        #expect(ASCIIText.hexBytes(Array("abc".utf8)) == nil)
        #expect(ASCIIText.hexNumber(Array("2906C908D115D362".utf8)) == 0x2906_C908_D115_D362)
        #expect(ASCIIText.hexNumber(Array("12345678901234567".utf8)) == nil)
    }
}
