/// The stable name of a configurable bound on untrusted input, as `--limit NAME=VALUE`, the
/// analysis's `limit-reached` problems and the reports spell it (`json.depth`, `tcp.connections`).
///
/// Each module declares the names of its own bounds next to the limits they name, so that a
/// parser that stops at a bound can say which one (`DecodeError.limit`) and a user who sees it
/// reached can raise exactly that one.
public struct LimitName: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: LimitName, rhs: LimitName) -> Bool { lhs.rawValue < rhs.rawValue }
}
