import Bluetooth
import Packets

/// Where a HAP peer is on its transport: an IP endpoint (HAP over IP and over CoAP) or a
/// Bluetooth device address (HAP over Bluetooth LE).
public enum PeerAddress: Sendable, Hashable, CustomStringConvertible {
    case ip(Endpoint)
    case bluetooth(BluetoothAddress)

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
