/// A JSON number as written, and its value.
///
/// A literal without fraction or exponent that fits `Int64` (or, when positive, `UInt64`) keeps its
/// exact integer value; every other literal is a `Double`. The text is kept so that reports can show
/// what the sender wrote (`"10."`-style quirks, `9.999999747e-05` from a `Float`).
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    public enum Value: Hashable, Sendable {
        case integer(Int64)
        /// A positive integer above `Int64.max`.
        case unsignedInteger(UInt64)
        case double(Double)
    }

    public let value: Value
    private let literal: Literal

    /// How the text is kept. Nearly every number a HAP body carries (`23.5`, `100`, an `iid`) is
    /// digits with at most a fraction: those keep the digits as one integer and make their text
    /// only when it is asked for, so reading a number builds no string (~130 instructions each,
    /// and most numbers are never shown). Every text has exactly one literal, so numbers compare
    /// and hash by value and text as before.
    private enum Literal: Hashable, Sendable {
        /// `-?[0-9]+(\.[0-9]+)?` with at most `maximumDecimalDigits` digits: `digits` are the
        /// digits read as one integer, the last `fractionDigits` of them after the point.
        case decimal(digits: UInt64, fractionDigits: UInt8, isNegative: Bool)
        /// Any other literal (an exponent, more digits).
        case text(String)

        /// Nineteen decimal digits always fit a `UInt64`.
        static let maximumDecimalDigits = 19

        /// The literal of `text`, which the caller has checked against the JSON grammar.
        init(_ text: String) {
            var digits: UInt64 = 0
            var count = 0
            var fractionDigits: Int?
            for byte in text.utf8.dropFirst(text.utf8.first == UInt8(ascii: "-") ? 1 : 0) {
                if byte == UInt8(ascii: ".") {
                    guard fractionDigits == nil else { self = .text(text); return }
                    fractionDigits = 0
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < Self.maximumDecimalDigits else {
                    self = .text(text)
                    return
                }
                digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                count += 1
                if let fraction = fractionDigits { fractionDigits = fraction + 1 }
            }
            self = .decimal(digits: digits, fractionDigits: UInt8(fractionDigits ?? 0), isNegative: text.utf8.first == UInt8(ascii: "-"))
        }

        var text: String {
            switch self {
            case .text(let text):
                return text
            case .decimal(let digits, let fractionDigits, let isNegative):
                var text = String(digits)
                let fraction = Int(fractionDigits)
                if fraction > 0 {
                    // A fraction's integer part is `0` or has no leading zero: `0.05` is digits 5.
                    if text.utf8.count <= fraction { text = String(repeating: "0", count: fraction + 1 - text.utf8.count) + text }
                    text.insert(".", at: text.index(text.endIndex, offsetBy: -fraction))
                }
                return isNegative ? "-" + text : text
            }
        }
    }

    /// A number parsed from `text`, which the caller has checked against the JSON grammar.
    init(text: String, value: Value) {
        self.value = value
        literal = Literal(text)
    }

    /// A number of digits without exponent, as the parser read it: `digits` with the last
    /// `fractionDigits` after the point, at most 19 digits in all.
    init(digits: UInt64, fractionDigits: Int, isNegative: Bool, value: Value) {
        self.value = value
        literal = .decimal(digits: digits, fractionDigits: UInt8(fractionDigits), isNegative: isNegative)
    }

    /// The most digits `init(digits:fractionDigits:isNegative:value:)` takes.
    static let maximumDecimalDigits = Literal.maximumDecimalDigits

    /// The literal as it appeared in the input; for numbers built in code, their shortest JSON text.
    public var text: String { literal.text }

    public init(_ value: Int64) {
        self.init(digits: value.magnitude, fractionDigits: 0, isNegative: value < 0, value: .integer(value))
    }

    public init(_ value: Int) {
        self.init(Int64(value))
    }

    public init(_ value: UInt64) {
        if let signed = Int64(exactly: value) {
            self.init(signed)
        } else {
            self.init(text: String(value), value: .unsignedInteger(value))
        }
    }

    /// A floating-point number; nil for infinities and NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        // Swift's description is the shortest text that reads back as the same Double, and it
        // always has a fraction or an exponent, so the value reads back as a Double too.
        self.init(text: value.description, value: .double(value))
    }

    /// Whether the literal had neither a fraction nor an exponent.
    public var isIntegerLiteral: Bool {
        switch value {
        case .integer, .unsignedInteger: true
        case .double:
            switch literal {
            case .decimal(_, let fractionDigits, _): fractionDigits == 0
            case .text(let text): !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            }
        }
    }

    /// The value as a `Double` (rounded when an integer has more than 53 significant bits).
    public var doubleValue: Double {
        switch value {
        case .integer(let integer): Double(integer)
        case .unsignedInteger(let integer): Double(integer)
        case .double(let double): double
        }
    }

    /// The value as an `Int64` when it is a whole number in range, however it was written
    /// (`5`, `5.0`, `5e0`); nil otherwise.
    public var int64Value: Int64? {
        switch value {
        case .integer(let integer): integer
        case .unsignedInteger: nil
        case .double(let double): Self.exactInt64(double)
        }
    }

    /// The value as a `UInt64` when it is a non-negative whole number in range, however it was
    /// written; nil otherwise.
    public var uint64Value: UInt64? {
        switch value {
        case .integer(let integer): UInt64(exactly: integer)
        case .unsignedInteger(let integer): integer
        case .double(let double): Self.exactInt64(double).flatMap { UInt64(exactly: $0) } ?? Self.exactUInt64AboveInt64(double)
        }
    }

    public var description: String { text }

    // `Int64(exactly:)` on a Double inlines calls to libm's rounding functions, which this module
    // does not link; a truncating conversion compiles to one instruction, and converting back tells
    // whether anything was lost.

    /// `double` as an Int64 when it is a whole number in range.
    static func exactInt64(_ double: Double) -> Int64? {
        guard double >= -0x1p63, double < 0x1p63 else { return nil }
        let integer = Int64(double)
        return Double(integer) == double ? integer : nil
    }

    /// `double` as a UInt64 when it is a whole number in 2^63 ..< 2^64.
    private static func exactUInt64AboveInt64(_ double: Double) -> UInt64? {
        guard double >= 0x1p63, double < 0x1p64 else { return nil }
        // Every Double this large is a whole number.
        return UInt64(double)
    }
}
