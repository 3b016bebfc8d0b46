/// The version in a start line: `HTTP/1.1`, or the `1.0` of HAP's `EVENT/1.0`.
public struct HTTPVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The digit before the dot.
    public var major: Int
    /// The digit after the dot.
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `1.0`: HTTP/1.0, and the version of every HAP event.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// `1.1`: every HAP request and response.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `1.1`.
    public var description: String { "\(major).\(minor)" }
}
