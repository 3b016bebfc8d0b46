/// The type of a HAP service or characteristic: a 128-bit UUID.
///
/// Apple-defined types share the base `-0000-1000-8000-0026BB765291` and differ only in their first
/// 32 bits, which HAP writes as a short form: the hex digits without leading zeros, upper case (`"3E"`,
/// `"25"`, `"11A"`). Accessories and controllers write either form in any case, so a type is parsed into
/// its 128 bits and compared by value. (HAP: UUIDs; ADK `HAPUUIDIsAppleDefined`.)
public struct HAPUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 64 bits, as written left to right.
    public let high: UInt64
    /// The last 64 bits.
    public let low: UInt64

    /// The low 64 bits of every Apple-defined type: `8000-0026BB765291`.
    private static let appleBaseLow: UInt64 = 0x8000_0026_BB76_5291
    /// The low 32 bits of the high half of every Apple-defined type: `-0000-1000`.
    private static let appleBaseHighSuffix: UInt64 = 0x0000_1000

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The Apple-defined type with this short value, e.g. `HAPUUID(appleDefined: 0x3E)` for
    /// `0000003E-0000-1000-8000-0026BB765291`.
    public init(appleDefined shortValue: UInt32) {
        self.init(high: UInt64(shortValue) << 32 | Self.appleBaseHighSuffix, low: Self.appleBaseLow)
    }

    /// Parses the short form (1 to 8 hex digits, an Apple-defined type) or the full form
    /// (`XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`), in any case; nil for anything else.
    public init?(_ text: String) {
        self.init(utf8: text.utf8)
    }

    /// Parses the short or the full form, as `init(_: String)` does.
    public init?(_ text: Substring) {
        self.init(utf8: text.utf8)
    }

    // Concrete public initializers keep callers in other modules off the unspecialised generic
    // path; this one is specialised for both inside the module.
    private init?(utf8 text: some Sequence<UInt8>) {
        var utf8 = text.makeIterator()
        var count = 0
        var high: UInt64 = 0
        var low: UInt64 = 0
        while let byte = utf8.next() {
            defer { count += 1 }
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard count < 36, let digit = Self.hexValue(byte) else { return nil }
            // Digits 0–15 (text positions before 19) fill the high half.
            if count < 19 {
                high = high << 4 | UInt64(digit)
            } else {
                low = low << 4 | UInt64(digit)
            }
        }
        switch count {
        case 1...8:
            // Only a short form stops before the first dash; it held at most 32 bits.
            self.init(appleDefined: UInt32(high))
        case 36:
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// Whether this type lies in Apple's range (`XXXXXXXX-0000-1000-8000-0026BB765291`).
    public var isAppleDefined: Bool {
        low == Self.appleBaseLow && high & 0xFFFF_FFFF == Self.appleBaseHighSuffix
    }

    /// The first 32 bits of an Apple-defined type; nil for other types.
    public var appleShortValue: UInt32? {
        isAppleDefined ? UInt32(high >> 32) : nil
    }

    /// The short form of an Apple-defined type (`"3E"`); nil for other types.
    public var shortForm: String? {
        appleShortValue.map { String($0, radix: 16, uppercase: true) }
    }

    /// How HAP accessories write the type: the short form for Apple-defined types, the full
    /// upper-case form for the rest (ADK, HAP-NodeJS, HAP-python all do this).
    public var displayString: String {
        shortForm ?? description
    }

    /// The full form, upper case: `0000003E-0000-1000-8000-0026BB765291`.
    public var description: String {
        let digits = Self.hexDigits(high) + Self.hexDigits(low)
        var text = String()
        text.reserveCapacity(36)
        for (index, digit) in digits.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
            text.append(digit)
        }
        return text
    }

    public static func < (lhs: HAPUUID, rhs: HAPUUID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    private static func hexDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
