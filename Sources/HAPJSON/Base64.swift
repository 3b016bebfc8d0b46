/// Base64 (RFC 4648 §4), the text form of `tlv8` and `data` characteristic values and of `authData`.
public enum Base64 {
    /// Decodes standard base64. Padding may be present or omitted, but where present it must be
    /// correct; any other character, or a length no encoder produces, gives nil.
    public static func decode(_ text: String) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        var padding = 0
        while utf8.last == UInt8(ascii: "=") && padding < 2 {
            utf8.removeLast()
            padding += 1
        }
        // With padding, the unpadded length must complete a group of four; without it, a group may
        // stop after two or three characters but never after one.
        guard utf8.count % 4 != 1, padding == 0 || (utf8.count + padding) % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in utf8 {
            guard let value = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // RFC 4648 §3.5: the bits left over must be zero, or two texts would decode alike.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes with padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            text.append(alphabet[Int(group >> 18)])
            text.append(alphabet[Int(group >> 12 & 0x3F)])
            text.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 0x3F)])
            text.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 0x3F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
