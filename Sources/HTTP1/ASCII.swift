/// The bytes HTTP's grammar is written in, and the searches the hot path runs over them.
///
/// Header blocks are scanned eight bytes per step (SWAR: SIMD within a register): a line end or
/// a control character is found with a handful of integer operations per word instead of a
/// branch per byte.
enum ASCII {
    static let horizontalTab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let comma: UInt8 = 0x2C
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equalsSign: UInt8 = 0x3D
    static let questionMark: UInt8 = 0x3F
    static let ampersand: UInt8 = 0x26
    static let delete: UInt8 = 0x7F

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == horizontalTab
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    @inline(__always)
    static func isUppercaseLetter(_ byte: UInt8) -> Bool {
        byte &- 0x41 < 26
    }

    /// The value of a hexadecimal digit in either case, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        if byte &- 0x30 < 10 { return Int(byte &- 0x30) }
        let folded = byte | 0x20
        if folded &- 0x61 < 6 { return Int(folded &- 0x61) + 10 }
        return nil
    }

    /// Whether `byte` may appear in a token: a method, a field name, a transfer coding.
    /// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    /// "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        // One bit per ASCII code, in two words; bytes above 0x7F are never tokens.
        let codes0to63: UInt64 = 0x03FF_6CFA_0000_0000
        let codes64to127: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        let bits = byte < 64 ? codes0to63 : codes64to127
        return byte < 128 && (bits >> UInt64(byte & 63)) & 1 == 1
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        isUppercaseLetter(byte) ? byte | 0x20 : byte
    }

    /// Whether `buffer` spells `literal`, byte for byte.
    static func equals(_ buffer: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        buffer.count == literal.utf8CodeUnitCount && literal.withUTF8Buffer { equals(buffer, UnsafeRawBufferPointer($0)) }
    }

    /// Whether `buffer` spells `text`, byte for byte.
    static func equals(_ buffer: UnsafeRawBufferPointer, _ text: String) -> Bool {
        buffer.count == text.utf8.count
            && (text.utf8.withContiguousStorageIfAvailable { equals(buffer, UnsafeRawBufferPointer($0)) } ?? text.utf8.elementsEqual(buffer))
    }

    /// Whether two buffers hold the same bytes; eight bytes at a time.
    static func equals(_ buffer: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
        let count = buffer.count
        guard count == other.count else { return false }
        if count < 8 {
            for offset in 0 ..< count where buffer[offset] != other[offset] { return false }
            return true
        }
        // Whole words, the last one overlapping its predecessor.
        var offset = 0
        while true {
            if word(buffer, at: offset) != word(other, at: offset) { return false }
            if offset == count - 8 { return true }
            offset = min(offset + 8, count - 8)
        }
    }

    /// Whether `buffer[range]` spells `lowercaseLiteral`, ignoring the case of ASCII letters.
    static func equalsIgnoringCase(
        _ buffer: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercaseLiteral: StaticString
    ) -> Bool {
        guard range.count == lowercaseLiteral.utf8CodeUnitCount else { return false }
        return equalsIgnoringCase(
            buffer, range, UnsafeRawBufferPointer(start: lowercaseLiteral.utf8Start, count: range.count))
    }

    /// Whether `buffer[range]` and `other` spell the same text, ignoring the case of ASCII
    /// letters; eight bytes at a time.
    static func equalsIgnoringCase(
        _ buffer: UnsafeRawBufferPointer, _ range: Range<Int>, _ other: UnsafeRawBufferPointer
    ) -> Bool {
        let count = range.count
        guard count == other.count else { return false }
        if count < 8 {
            for offset in 0 ..< count where lowercased(buffer[range.lowerBound + offset]) != lowercased(other[offset]) {
                return false
            }
            return true
        }
        // Whole words, the last one overlapping its predecessor.
        var offset = 0
        while true {
            let left = lowercased(word(buffer, at: range.lowerBound + offset))
            let right = lowercased(word(other, at: offset))
            if left != right { return false }
            if offset == count - 8 { return true }
            offset = min(offset + 8, count - 8)
        }
    }

    // MARK: Word-at-a-time search

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func word(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// `word` with its upper-case ASCII letters made lower-case, all eight bytes at once.
    @inline(__always)
    private static func lowercased(_ word: UInt64) -> UInt64 {
        // Each byte's low seven bits plus a bias set the high bit from 'A' on, and from past 'Z'
        // on; no sum carries into the next byte. Bytes of 0x80 and above stay as they are.
        let low7 = word & ~highBits
        let fromA = low7 &+ (lowBits &* 0x3F)
        let pastZ = low7 &+ (lowBits &* 0x25)
        let upper = (fromA ^ pastZ) & ~word & highBits
        return word | (upper >> 2)
    }

    /// The high bit of every byte of `word` that is zero. A borrow can mark a byte above a zero
    /// byte too, never below one, so the lowest mark is exact: callers only use that one.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- lowBits) & ~word & highBits
    }

    /// The index of the first `byte` in `buffer[start..<end]`, or nil.
    static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var index = start
        let pattern = lowBits &* UInt64(byte)
        while end - index >= 8 {
            let marks = zeroBytes(word(buffer, at: index) ^ pattern)
            if marks != 0 { return index + marks.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            if buffer[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The index of the first control character in `buffer[start..<end]` — a byte below 0x20
    /// (horizontal tab, CR and LF included) or DEL — or nil.
    static func firstControlCharacter(in buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var index = start
        let spaces = lowBits &* UInt64(space)
        let deletes = lowBits &* UInt64(delete)
        while end - index >= 8 {
            let value = word(buffer, at: index)
            // Bytes below 0x20 borrow into their high bit; bytes of 0x80 and above are excluded
            // by `~value`, so UTF-8 and other obs-text pass.
            let belowSpace = (value &- spaces) & ~value & highBits
            let marks = belowSpace | zeroBytes(value ^ deletes)
            if marks != 0 { return index + marks.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            let byte = buffer[index]
            if byte < space || byte == delete { return index }
            index += 1
        }
        return nil
    }
}

