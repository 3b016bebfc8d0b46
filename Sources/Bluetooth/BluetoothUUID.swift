import WireParsing

/// A Bluetooth UUID as ATT, GATT and advertising data carry it: 16, 32 or 128 bits, the short
/// forms standing for the Bluetooth base UUID `0000xxxx-0000-1000-8000-00805F9B34FB` (Core Vol 3
/// Part B §2.5.1). All forms are sent little-endian.
///
/// HAP's own types are 128-bit UUIDs on Apple's base `0000xxxx-0000-1000-8000-0026BB765291`
/// (HAP: Service and Characteristic types); `hapShortForm` recovers their short number.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// The full 128-bit value, most significant bit first as the text form reads.
    public var value: UInt128
    /// How many bytes the UUID took on the wire: 2, 4 or 16.
    public var wireLength: Int

    static let bluetoothBase: UInt128 = 0x0000_0000_0000_1000_8000_0080_5F9B_34FB
    static let hapBase: UInt128 = 0x0000_0000_0000_1000_8000_0026_BB76_5291
    private static let shortFormMask: UInt128 = 0xFFFF_FFFF << 96

    public init(value: UInt128, wireLength: Int = 16) {
        self.value = value
        self.wireLength = wireLength
    }

    /// A 16- or 32-bit UUID on the Bluetooth base.
    public init(shortForm: UInt32) {
        value = Self.bluetoothBase | UInt128(shortForm) << 96
        wireLength = shortForm > 0xFFFF ? 4 : 2
    }

    /// Reads a UUID of `length` bytes (2, 4 or 16), little-endian.
    public init(parsing cursor: inout ByteCursor, length: Int) throws(DecodeError) {
        switch length {
        case 2:
            self.init(shortForm: UInt32(try cursor.readUInt16LittleEndian("a 16-bit UUID")))
        case 4:
            self.init(shortForm: try cursor.readUInt32LittleEndian("a 32-bit UUID"))
            wireLength = 4
        case 16:
            let low = try cursor.readUInt64LittleEndian("the low half of a 128-bit UUID")
            let high = try cursor.readUInt64LittleEndian("the high half of a 128-bit UUID")
            self.init(value: UInt128(high) << 64 | UInt128(low), wireLength: 16)
        default:
            throw cursor.malformed("a UUID of 2, 4 or 16 bytes, found \(length)")
        }
    }

    /// Reads a UUID from `bytes`, whose count (2, 4 or 16) gives its form.
    public init(littleEndianBytes bytes: [UInt8]) throws(DecodeError) {
        var cursor = ByteCursor(bytes.span.bytes, layer: .att)
        try self.init(parsing: &cursor, length: bytes.count)
    }

    /// The 16- or 32-bit number when the UUID lies on the Bluetooth base.
    public var shortForm: UInt32? {
        value & ~Self.shortFormMask == Self.bluetoothBase ? UInt32(truncatingIfNeeded: value >> 96) : nil
    }

    /// The short number of a HAP type (`0x43` for the Lightbulb service) when the UUID lies on
    /// Apple's HAP base.
    public var hapShortForm: UInt32? {
        value & ~Self.shortFormMask == Self.hapBase ? UInt32(truncatingIfNeeded: value >> 96) : nil
    }

    /// The 16 bytes as sent, least significant first.
    public var littleEndianBytes: [UInt8] {
        (0 ..< 16).map { UInt8(truncatingIfNeeded: value >> (8 * UInt128($0))) }
    }

    /// `0x180A` for a 16-bit UUID on the base, `0x0001F00D` for a 32-bit one, otherwise the
    /// canonical text: `00000043-0000-1000-8000-0026BB765291`.
    public var description: String {
        if wireLength < 16, let short = shortForm {
            return "0x" + String(short, radix: 16, uppercase: true).leftPadded(to: wireLength * 2)
        }
        let hex = String(value, radix: 16, uppercase: true).leftPadded(to: 32)
        let characters = Array(hex)
        let groups = [0 ..< 8, 8 ..< 12, 12 ..< 16, 16 ..< 20, 20 ..< 32].map { String(characters[$0]) }
        return groups.joined(separator: "-")
    }
}
