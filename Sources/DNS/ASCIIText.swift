/// Strict readers for the ASCII values TXT records carry. TXT values are bytes (RFC 6763
/// §6.5); HAP and Matter spell numbers in decimal and binary in base64 or hex.
enum ASCIIText {
    /// Decimal digits only: no sign, space or fraction; nil when empty, not digits, or above
    /// `UInt64.max`.
    static func decimal(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowShift, !overflowAdd else { return nil }
            value = sum
        }
        return value
    }

    /// Whether a decimal has a redundant leading zero, as `007`.
    static func hasLeadingZero(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count > 1 && bytes.first == UInt8(ascii: "0")
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Hex in either case, an even number of digits; nil otherwise.
    static func hexBytes(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for character in text {
            guard let digit = hexDigit(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }

    /// Hex digits (either case) read as one number; nil when empty, not hex, or over 64 bits.
    static func hexNumber(_ text: some Collection<UInt8>) -> UInt64? {
        guard (1...16).contains(text.count) else { return nil }
        var value: UInt64 = 0
        for character in text {
            guard let digit = hexDigit(character) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// Canonical base64 (RFC 4648 §4): the standard alphabet, padded to a multiple of four
    /// characters, with zero bits after the last encoded byte. Nil for anything else.
    static func base64(_ text: some Collection<UInt8>) -> [UInt8]? {
        let characters = Array(text)
        guard characters.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3)
        var index = 0
        while index < characters.count {
            let isLastGroup = index + 4 == characters.count
            let padding = isLastGroup ? characters[index..<(index + 4)].reversed().prefix { $0 == UInt8(ascii: "=") }.count : 0
            guard padding <= 2 else { return nil }
            var group: UInt32 = 0
            for offset in 0..<4 {
                let sextet: UInt8
                if offset >= 4 - padding {
                    sextet = 0
                } else {
                    guard let value = base64Value(characters[index + offset]) else { return nil }
                    sextet = value
                }
                group = group << 6 | UInt32(sextet)
            }
            let decoded = [UInt8(group >> 16), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
            // Non-canonical: bits set in the positions the padding says are unused.
            guard decoded[(3 - padding)...].allSatisfy({ $0 == 0 }) else { return nil }
            bytes.append(contentsOf: decoded[..<(3 - padding)])
            index += 4
        }
        return bytes
    }

    private static func base64Value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
