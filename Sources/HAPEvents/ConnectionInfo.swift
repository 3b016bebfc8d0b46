import Packets

/// A HAP connection as events name it: a number for the run, its transport, and the two peers
/// in their HAP roles.
public struct ConnectionInfo: Sendable, Hashable, CustomStringConvertible {
    /// The run's number for the connection; for HAP over IP, the TCP connection number (as in
    /// `hapscope stats`).
    public let id: Int
    public let transport: HAPTransport
    public let controller: PeerAddress
    public let accessory: PeerAddress

    public init(id: Int, transport: HAPTransport, controller: PeerAddress, accessory: PeerAddress) {
        self.id = id
        self.transport = transport
        self.controller = controller
        self.accessory = accessory
    }

    /// A HAP-over-IP connection: TCP connection `id` between the two endpoints.
    public init(tcpConnection id: Int, controller: Endpoint, accessory: Endpoint) {
        self.init(id: id, transport: .ip(tcpConnection: id), controller: .ip(controller), accessory: .ip(accessory))
    }

    /// `#2 10.77.0.1:49202 → 10.77.0.2:51826`.
    public var description: String { "#\(id) \(controller) → \(accessory)" }
}
