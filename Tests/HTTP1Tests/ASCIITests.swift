@testable import HTTP1
import Testing
import TestSupport

@Suite struct ASCIITests {
    /// Every alignment and length up to three words, with the target at every position and
    /// decoys around it: the word-at-a-time search must agree with a byte loop.
    @Test func wordAtATimeSearchFindsTheSameByteAsAByteLoop() {
        var generator = SeededRandom(seed: 7)
        for length in 0 ... 24 {
            for _ in 0 ..< 60 {
                // Bytes near the searched ones, to provoke borrows between lanes.
                let alphabet: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0B, 0x0D, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x8A, 0xFF]
                let bytes = (0 ..< length + 3).map { _ in alphabet.randomElement(using: &generator)! }
                bytes.withUnsafeBytes { buffer in
                    for start in 0 ... 3 {
                        let end = start + length
                        let lineFeed = ASCII.firstIndex(of: 0x0A, in: buffer, from: start, to: end)
                        #expect(lineFeed == (start ..< end).first { bytes[$0] == 0x0A })
                        let control = ASCII.firstControlCharacter(in: buffer, from: start, to: end)
                        #expect(control == (start ..< end).first { bytes[$0] < 0x20 || bytes[$0] == 0x7F })
                    }
                }
            }
        }
    }

    @Test func tokenCharactersAreExactlyThoseOfRFC9110() {
        let tokens = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min ... UInt8.max {
            #expect(ASCII.isTokenCharacter(byte) == tokens.contains(byte), "byte \(byte)")
        }
    }

    @Test func hexDigitsReadInEitherCase() {
        #expect(ASCII.hexValue(UInt8(ascii: "0")) == 0)
        #expect(ASCII.hexValue(UInt8(ascii: "9")) == 9)
        #expect(ASCII.hexValue(UInt8(ascii: "a")) == 10)
        #expect(ASCII.hexValue(UInt8(ascii: "F")) == 15)
        #expect(ASCII.hexValue(UInt8(ascii: "g")) == nil)
        #expect(ASCII.hexValue(UInt8(ascii: "G")) == nil)
        #expect(ASCII.hexValue(UInt8(ascii: "/")) == nil)
        #expect(ASCII.hexValue(UInt8(ascii: ":")) == nil)
        #expect(ASCII.hexValue(UInt8(ascii: "@")) == nil)
    }

    @Test func wordAtATimeCaseFoldingAgreesWithAByteLoop() {
        // Letters, their neighbours '@', '[', '`', '{', and bytes with the high bit set.
        let alphabet: [UInt8] = [0x40, 0x41, 0x4D, 0x5A, 0x5B, 0x60, 0x61, 0x6D, 0x7A, 0x7B, 0x2D, 0x0D, 0xC1, 0xE1]
        func fold(_ byte: UInt8) -> UInt8 { (0x41 ... 0x5A).contains(byte) ? byte + 0x20 : byte }
        var generator = SeededRandom(seed: 11)
        for length in 0 ... 20 {
            for _ in 0 ..< 200 {
                let left = (0 ..< length).map { _ in alphabet.randomElement(using: &generator)! }
                var right = left.map { byte in Bool.random(using: &generator) ? fold(byte) : byte }
                if length > 0, Bool.random(using: &generator) {
                    right[Int.random(in: 0 ..< length, using: &generator)] = alphabet.randomElement(using: &generator)!
                }
                let expected = left.map(fold) == right.map(fold)
                let padded = [0xEE] + left
                padded.withUnsafeBytes { buffer in
                    right.withUnsafeBytes { other in
                        #expect(ASCII.equalsIgnoringCase(buffer, 1 ..< 1 + length, other) == expected, "\(left) \(right)")
                    }
                }
            }
        }
    }

    @Test func caseInsensitiveComparisonFoldsLettersOnly() {
        let bytes = Array("Content-Length\r-length".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(ASCII.equalsIgnoringCase(buffer, 0 ..< 14, "content-length"))
            #expect(!ASCII.equalsIgnoringCase(buffer, 0 ..< 13, "content-length"))
            // CR | 0x20 is '-': a bit trick would confuse them, the comparison must not.
            #expect(!ASCII.equalsIgnoringCase(buffer, 14 ..< 22, "--length"))
        }
    }
}
