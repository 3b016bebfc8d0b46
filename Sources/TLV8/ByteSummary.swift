import WireParsing

/// One-line text for a byte value in reports: its length and its hex, shortened past eight
/// bytes to the first and last two (`384 bytes 4a1f…9c02`).
enum ByteSummary {
    static let fullHexLimit = 8

    static func describe(_ bytes: [UInt8]) -> String {
        let count = bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        switch bytes.count {
        case 0:
            return count
        case ...fullHexLimit:
            return "\(count) \(Hex.encode(bytes))"
        default:
            return "\(count) \(Hex.encode(bytes.prefix(2)))…\(Hex.encode(bytes.suffix(2)))"
        }
    }
}
