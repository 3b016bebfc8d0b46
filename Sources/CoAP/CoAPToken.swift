/// A message token: 0 to 8 bytes that match a response to its request (RFC 7252 §5.3.1),
/// held without an allocation.
public struct CoAPToken: Hashable, Sendable, CustomStringConvertible {
    /// The bytes, first byte most significant.
    public let value: UInt64
    public let length: Int

    public static let maximumLength = 8
    public static let empty = CoAPToken(value: 0, length: 0)

    public init(value: UInt64, length: Int) {
        precondition((0 ... Self.maximumLength).contains(length), "a CoAP token has 0 to 8 bytes")
        self.value = length == 0 ? 0 : value & (UInt64.max >> (64 - 8 * UInt64(length)))
        self.length = length
    }

    public init(bytes: [UInt8]) {
        self.init(value: bytes.reduce(0) { $0 << 8 | UInt64($1) }, length: bytes.count)
    }

    public var bytes: [UInt8] {
        (0 ..< length).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(length - 1 - $0))) }
    }

    /// Hex, or `empty`.
    public var description: String {
        length == 0 ? "empty" : bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
