import WireParsing

/// A 48-bit Bluetooth device address (BD_ADDR), sent least significant byte first (Core Vol 2
/// Part B §1.2) and written most significant first, as every tool prints it.
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 48 bits, the first byte on the wire least significant. A plain integer rather than an
    /// array: every event names its connection's addresses, and an array made each copy of a
    /// `ConnectionInfo` count references (a value-witness call per event).
    private let bits: UInt64

    /// - Parameter wireBytes: six bytes in wire order, the least significant first.
    public init(wireBytes: [UInt8]) {
        precondition(wireBytes.count == 6, "a Bluetooth address has six bytes")
        bits = wireBytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        var address = try cursor.readCursor(count: 6, "a 6-byte Bluetooth device address")
        let low = try address.readUInt32LittleEndian()
        let high = try address.readUInt16LittleEndian()
        bits = UInt64(high) << 32 | UInt64(low)
    }

    /// The six bytes in wire order: `wireBytes[0]` is the least significant.
    public var wireBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }

    /// `C0:FF:EE:00:00:01`.
    public var description: String {
        wireBytes.reversed().map { Hex.encode(CollectionOfOne($0)).uppercased() }.joined(separator: ":")
    }
}

/// How to read a device address (Core Vol 4 Part E §7.7.65.1: Peer_Address_Type).
public struct BluetoothAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = BluetoothAddressType(rawValue: 0x00)
    public static let randomDevice = BluetoothAddressType(rawValue: 0x01)
    /// A public identity address the controller resolved from a resolvable private address.
    public static let publicIdentity = BluetoothAddressType(rawValue: 0x02)
    public static let randomIdentity = BluetoothAddressType(rawValue: 0x03)
    /// Advertising reports: no address was sent (anonymous advertising).
    public static let anonymous = BluetoothAddressType(rawValue: 0xFF)

    public var description: String {
        switch self {
        case .publicDevice: "public"
        case .randomDevice: "random"
        case .publicIdentity: "public identity"
        case .randomIdentity: "random identity"
        case .anonymous: "anonymous"
        default: "address type 0x\(String(rawValue, radix: 16))"
        }
    }
}
