import HAPEvents
import TLV8
import WireParsing

/// TLV8 bodies and binary data as text report lines.
enum TLVText {
    /// One line per item: offset, stable field name, length and display value, aligned.
    /// `   3  publicKey      384  384 bytes 4a1f…9c02  (2 fragments)`.
    static func itemLines(_ body: TLV8Body, style: TextStyle, header: Bool = false) -> [String] {
        let nameWidth = max(min(body.items.map { $0.fieldName.count }.max() ?? 0, 16), header ? 5 : 0)
        var lines = header
            ? [style.paint("offset  " + EventText.padRight("field", nameWidth + 2) + "length  value", .dim)] : []
        lines += body.items.map { item in
            style.paint(EventText.padLeft("\(item.offset)", header ? 6 : 5), .dim) + "  "
                + EventText.padRight(item.fieldName, nameWidth + (header ? 2 : 1))
                + EventText.padLeft("\(item.value.count)", header ? 6 : 4) + "  " + TerminalText.sanitized(item.displayValue)
                + (item.fragmentCount > 1 ? style.paint("  (\(item.fragmentCount) fragments)", .dim) : "")
        }
        for diagnostic in body.diagnostics {
            lines.append(style.paint("! \(diagnostic)", .warning))
        }
        return lines
    }

    /// `0000  06 01 02 03 …  |....|`, 16 bytes a line.
    static func hexDump(_ bytes: [UInt8]) -> [String] {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            let row = bytes[start ..< min(start + 16, bytes.count)]
            let hex = row.map { Hex.encode(CollectionOfOne($0)) }.joined(separator: " ")
            let ascii = String(decoding: row.map { (0x20 ... 0x7E).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            let offset = String(start, radix: 16)
            return String(repeating: "0", count: max(0, 4 - offset.count)) + offset + "  "
                + EventText.padRight(hex, 48) + " |" + ascii + "|"
        }
    }
}
