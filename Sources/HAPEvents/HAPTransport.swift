/// How a HAP connection is carried, with where it is on that transport.
public enum HAPTransport: Sendable, Hashable, CustomStringConvertible {
    /// HAP over IP: HTTP over a TCP connection, numbered as `hapscope stats` numbers them.
    case ip(tcpConnection: Int)
    /// HAP over Bluetooth LE: GATT over the LE connection with this HCI connection handle.
    case bluetoothLE(connectionHandle: UInt16)
    /// HAP over Thread: CoAP over UDP between the two endpoints of the connection.
    case coap

    /// The stable name JSON uses: `ip`, `ble`, `coap`.
    public var name: String {
        switch self {
        case .ip: "ip"
        case .bluetoothLE: "ble"
        case .coap: "coap"
        }
    }

    public var description: String { name }
}
