extension DNSName {
    /// The name in DNS master-file form (RFC 1035 §5.1), fully qualified with a trailing dot:
    /// `Living\032Room._hap._tcp.local.`. Bytes outside printable ASCII, and the space, become
    /// three-digit decimal escapes; a dot inside a label becomes `\.` (RFC 6763 §4.3), and the
    /// other master-file specials (`\ " ( ) ; @ $`) are escaped the same way. The text maps
    /// back to exactly the same labels.
    public var escapedText: String {
        guard !isRoot else { return "." }
        var text: [UInt8] = []
        text.reserveCapacity(encodedLabels.count + 8)
        for label in labels {
            Self.appendEscaped(label, to: &text)
            text.append(UInt8(ascii: "."))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The name as a user reads it: labels decoded as UTF-8 and joined with dots, without a
    /// trailing dot (`Living Room._hap._tcp.local`). Invalid UTF-8 and control characters show
    /// as U+FFFD so that hostile names cannot move a terminal's cursor. The form is ambiguous
    /// when a label holds a dot; `escapedText` is not.
    public var displayText: String {
        guard !isRoot else { return "." }
        return labels.map(Self.displayText(ofLabel:)).joined(separator: ".")
    }

    /// One label decoded for display, as in `displayText`.
    public static func displayText(ofLabel label: some Collection<UInt8>) -> String {
        // Printable ASCII, the common case, needs no decoding pass.
        if label.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return String(decoding: label, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: label, as: UTF8.self).unicodeScalars {
            scalars.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// Unicode general category Cc: C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// One label in master-file form, as in `escapedText`.
    public static func escapedText(ofLabel label: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        appendEscaped(label, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendEscaped(_ label: some Collection<UInt8>, to text: inout [UInt8]) {
        for byte in label {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: ";"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case 0x21...0x7E:
                text.append(byte)
            default:
                text.append(UInt8(ascii: "\\"))
                text.append(UInt8(ascii: "0") + byte / 100)
                text.append(UInt8(ascii: "0") + byte / 10 % 10)
                text.append(UInt8(ascii: "0") + byte % 10)
            }
        }
    }

    /// Parses master-file text: labels separated by unescaped dots, `\.` and `\\` for a
    /// literal character, `\DDD` for a byte in decimal, other characters as their UTF-8 bytes.
    /// A trailing dot is optional; `""` and `"."` are the root. Nil for an empty label, a bad
    /// escape, a label over 63 bytes or a name over 255 bytes.
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        if utf8.isEmpty || utf8 == [UInt8(ascii: ".")] {
            self = .root
            return
        }
        var labels: [[UInt8]] = []
        var label: [UInt8] = []
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            switch byte {
            case UInt8(ascii: "."):
                guard !label.isEmpty else { return nil }
                labels.append(label)
                label.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\\"):
                guard index < utf8.count else { return nil }
                if let value = Self.decimalEscape(utf8, at: index) {
                    label.append(value)
                    index += 3
                } else if Self.isDigit(utf8[index]) {
                    return nil
                } else {
                    label.append(utf8[index])
                    index += 1
                }
            default:
                label.append(byte)
            }
        }
        if !label.isEmpty { labels.append(label) }
        self.init(labels: labels)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private static func decimalEscape(_ utf8: [UInt8], at index: Int) -> UInt8? {
        guard index + 3 <= utf8.count, utf8[index..<(index + 3)].allSatisfy(isDigit) else { return nil }
        let value = utf8[index..<(index + 3)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return UInt8(exactly: value)
    }
}
