import Packets

/// Where a HAP peer is on its transport: an IP endpoint (HAP over IP and over CoAP) or a
/// Bluetooth device address (HAP over Bluetooth LE).
public enum PeerAddress: Sendable, Hashable, CustomStringConvertible {
    case ip(Endpoint)
    case bluetooth(BluetoothDeviceAddress)

    /// The IP endpoint, for the transports over IP.
    public var endpoint: Endpoint? {
        if case .ip(let endpoint) = self { return endpoint }
        return nil
    }

    /// The port, for the transports over IP.
    public var port: UInt16? { endpoint?.port }

    /// `10.0.0.1:49201`, `[fd77::1]:49201`, `AA:BB:CC:DD:EE:FF`.
    public var description: String {
        switch self {
        case .ip(let endpoint): endpoint.description
        case .bluetooth(let address): address.description
        }
    }
}

/// A Bluetooth device address (BD_ADDR): 48 bits, public or random.
public struct BluetoothDeviceAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as a number, most significant byte first when written.
    public let value: UInt64
    public let isRandom: Bool

    public init(value: UInt64, isRandom: Bool) {
        self.value = value & 0xFFFF_FFFF_FFFF
        self.isRandom = isRandom
    }

    /// From the six bytes as HCI carries them: least significant byte first.
    public init(littleEndianBytes bytes: some Collection<UInt8>, isRandom: Bool) {
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(6).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        self.init(value: value, isRandom: isRandom)
    }

    /// `AA:BB:CC:DD:EE:FF`, as Bluetooth tools write it (with `/random` for a random address).
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for index in stride(from: 5, through: 0, by: -1) {
            let byte = Int((value >> (8 * UInt64(index))) & 0xFF)
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
            if index > 0 { text.append(":") }
        }
        return isRandom ? text + "/random" : text
    }
}
