import HAPEvents
/// Makes text from a capture safe to print.
///
/// Names, header values and bodies come from the wire and may hold escape sequences that move a
/// terminal's cursor, retitle its window or worse; every such string goes through `sanitized`
/// before a text report prints it. (JSON output escapes control characters by itself.)
public enum TerminalText {
    /// `text` with C0 and C1 control characters (and DEL) shown as `\u{…}`-style escapes, so
    /// nothing is hidden and nothing is interpreted. Printable text, the common case, is returned
    /// as it is.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                // Spelled as Swift's debugDescription spells it, which quoted values use.
                let digits = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: "\\u{\(digits.count < 2 ? "0" + digits : digits)}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }
}
