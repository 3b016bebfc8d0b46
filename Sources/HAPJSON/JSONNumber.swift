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
    /// The literal as it appeared in the input; for numbers built in code, their shortest JSON text.
    public let text: String

    /// A number parsed from `text`, which the caller has checked against the JSON grammar.
    init(text: String, value: Value) {
        self.text = text
        self.value = value
    }

    public init(_ value: Int64) {
        self.init(text: String(value), value: .integer(value))
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
        case .double: !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
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
