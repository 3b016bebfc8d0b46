import HAPEvents
/// Builds an HTML document in which nothing from the capture can become markup.
///
/// Markup can only be written from `StaticString` literals — tag names, attribute names and fixed
/// fragments are spelled in this module's source — while every `String` goes through `text(_:)`
/// or an attribute value and is escaped. Capture text is attacker-controlled (accessory names,
/// TXT values, JSON strings), so the type system, not reviewer care, keeps it out of the markup.
struct HTMLWriter {
    private(set) var output: String

    init(reservingCapacity capacity: Int = 64 * 1024) {
        output = String()
        output.reserveCapacity(capacity)
    }

    /// Appends fixed markup from this module's source.
    mutating func markup(_ literal: StaticString) {
        literal.withUTF8Buffer { output += String(decoding: $0, as: UTF8.self) }
    }

    /// Appends text, escaped for element content and quoted attribute values alike.
    mutating func text(_ text: some StringProtocol) {
        Self.appendEscaped(text, to: &output)
    }

    /// `<tag attributes>content</tag>`.
    mutating func element(
        _ tag: StaticString, _ attributes: KeyValuePairs<StaticString, String> = [:],
        _ content: (inout HTMLWriter) -> Void
    ) {
        open(tag, attributes)
        content(&self)
        close(tag)
    }

    /// `<tag attributes>escaped text</tag>`.
    mutating func element(_ tag: StaticString, _ attributes: KeyValuePairs<StaticString, String> = [:], text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    /// `<tag attributes>`, for void elements and for content written between `open` and `close`.
    mutating func open(_ tag: StaticString, _ attributes: KeyValuePairs<StaticString, String> = [:]) {
        output += "<"
        markup(tag)
        for (name, value) in attributes {
            output += " "
            markup(name)
            output += "=\""
            text(value)
            output += "\""
        }
        output += ">"
    }

    mutating func close(_ tag: StaticString) {
        output += "</"
        markup(tag)
        output += ">"
    }

    // MARK: Escaping

    /// Escapes the five characters HTML gives meaning to, and shows as visible symbols the
    /// characters that would otherwise hide or reorder text: C0 controls and DEL as their Unicode
    /// control pictures (␇), and bidirectional overrides and isolates as `⟨U+202E⟩`, so that a
    /// hostile name cannot display as something else ("Trojan Source", CVE-2021-42574).
    static func appendEscaped(_ text: some StringProtocol, to output: inout String) {
        if !text.utf8.contains(where: needsEscaping) {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output += "&amp;"
            case 0x3C: output += "&lt;"
            case 0x3E: output += "&gt;"
            case 0x22: output += "&quot;"
            case 0x27: output += "&#39;"
            case 0x09, 0x0A: output.unicodeScalars.append(scalar)
            case 0x00 ..< 0x20: output.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: output += "\u{2421}"
            case 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x200E, 0x200F, 0x061C:
                output += "⟨U+" + String(scalar.value, radix: 16, uppercase: true) + "⟩"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Whether a UTF-8 code unit may start something `appendEscaped` rewrites. Every non-ASCII
    /// byte qualifies because the bidirectional controls are multi-byte; plain ASCII text, the
    /// common case, is appended in one piece.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x7F || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }
}
