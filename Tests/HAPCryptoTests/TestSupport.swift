import HAPCrypto

/// Bytes from hex text with optional whitespace, for vectors copied from their sources.
func hex(_ text: String) -> [UInt8] {
    let digits = text.utf8.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd number of hex digits in a test vector")
    func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("not a hex digit in a test vector")
        }
    }
    return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
}

/// Secret bytes from hex text.
func secret(_ text: String) -> SecretBytes { SecretBytes(hex(text)) }

/// Lower-case hex of bytes, for readable failure messages.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
