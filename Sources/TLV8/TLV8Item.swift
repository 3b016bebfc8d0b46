/// One decoded TLV8 item, its fragments joined and its value copied out of the input.
public struct TLV8Item: Sendable, Hashable {
    public var type: TLV8Type
    /// The joined value.
    public var value: [UInt8]
    /// The absolute offset of the first fragment's type byte.
    public var offset: Int
    /// How many fragments carried the value: 1 unless it was longer than 255 bytes.
    public var fragmentCount: Int

    public init(type: TLV8Type, value: [UInt8], offset: Int, fragmentCount: Int) {
        self.type = type
        self.value = value
        self.offset = offset
        self.fragmentCount = fragmentCount
    }

    /// Copies an element out of the input it borrows.
    public init(_ element: borrowing TLV8Element) {
        self.init(type: element.type, value: element.value, offset: element.offset, fragmentCount: element.fragmentCount)
    }

    /// The value read as a little-endian unsigned integer (HAP: TLV8 integers), or nil when it
    /// is longer than `maximumByteCount` bytes. An empty value reads as 0, as HomeKitADK's
    /// `HAPPairingReadFlags` does; integer items that must not be empty say so by their length rule.
    public func littleEndianInteger(maximumByteCount: Int = 8) -> UInt64? {
        guard value.count <= min(maximumByteCount, 8) else { return nil }
        var result: UInt64 = 0
        for (index, byte) in value.enumerated() {
            result |= UInt64(byte) << (8 * UInt64(index))
        }
        return result
    }
}
