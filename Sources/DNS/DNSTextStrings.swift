import WireParsing

/// TXT record data: one or more character-strings, each a length byte and up to 255 bytes
/// (RFC 1035 §3.3.14). The bytes are kept as sent; DNS-SD reads them as key/value pairs
/// (`ServiceTXT`).
public struct DNSTextStrings: Sendable, Hashable {
    /// The record data as sent: length-prefixed strings, back to back.
    public let encodedStrings: [UInt8]

    /// Reads TXT data: every byte of the cursor, which must split exactly into strings.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        while !cursor.isAtEnd {
            let length = Int(try cursor.readUInt8("a string length"))
            try cursor.skip(count: length, "a string of \(length) bytes")
        }
        encodedStrings = cursor.bytes.extracting(start..<cursor.position).withUnsafeBytes { Array($0) }
    }

    /// TXT data made of `strings`; nil when one is longer than 255 bytes.
    public init?(strings: [[UInt8]]) {
        var encoded: [UInt8] = []
        for string in strings {
            guard let length = UInt8(exactly: string.count) else { return nil }
            encoded.append(length)
            encoded.append(contentsOf: string)
        }
        encodedStrings = encoded
    }

    /// The strings in order, as slices of `encodedStrings` (a string's offset in the record
    /// data is its slice's `startIndex - 1`).
    public var strings: [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var index = 0
        while index < encodedStrings.count {
            let length = Int(encodedStrings[index])
            result.append(encodedStrings[(index + 1)..<(index + 1 + length)])
            index += 1 + length
        }
        return result
    }
}
