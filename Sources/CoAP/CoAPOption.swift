/// One option of a message: its number (the running sum of the deltas) and its value.
public struct CoAPOption: Hashable, Sendable {
    public var number: CoAPOptionNumber
    public var value: [UInt8]
    /// The absolute offset of the option's first byte.
    public var offset: Int

    public init(number: CoAPOptionNumber, value: [UInt8], offset: Int = 0) {
        self.number = number
        self.value = value
        self.offset = offset
    }

    /// The value read as an unsigned integer (RFC 7252 §3.2: network byte order, leading
    /// zeros dropped, empty for 0); nil when longer than 8 bytes.
    public var unsignedValue: UInt64? {
        guard value.count <= 8 else { return nil }
        return value.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The value as UTF-8 text.
    public var stringValue: String { String(decoding: value, as: UTF8.self) }

    /// Whether the value's length is outside what the registry allows. RFC 7252 §5.4.3 treats
    /// such an option as unrecognised, which fails the message when the option is critical.
    public var violatesRegisteredLength: Bool {
        guard let definition = number.definition else { return false }
        return !definition.lengths.contains(value.count)
    }
}
