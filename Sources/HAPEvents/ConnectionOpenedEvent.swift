/// A connection recognised as HAP.
public struct ConnectionOpenedEvent: Sendable {
    public let connection: ConnectionInfo
    /// The accessory's device id, when discovery tied its address to one.
    public let deviceID: String?
    /// Whether the connection's start (the TCP handshake, the LE connection) was captured; if
    /// not, the connection was already open.
    public let handshakeSeen: Bool
    /// Why hapscope decided this connection speaks HAP.
    public let recognisedBy: Recognition

    public init(connection: ConnectionInfo, deviceID: String?, handshakeSeen: Bool, recognisedBy: Recognition) {
        self.connection = connection
        self.deviceID = deviceID
        self.handshakeSeen = handshakeSeen
        self.recognisedBy = recognisedBy
    }

    public enum Recognition: String, Sendable, Hashable {
        /// The first bytes were a request for a HAP resource.
        case hapRequest = "HAP request"
        /// An accessory advertised one of the endpoints.
        case advertisedEndpoint = "advertised endpoint"
        /// The key log's `SESSION_ENDPOINTS`, or an earlier connection of the run, names one of
        /// the endpoints as an accessory's.
        case knownEndpoint = "known accessory endpoint"
        /// A key-log session key verified its frames.
        case sessionKey = "key-log session key"
        /// HAP over Bluetooth LE: an LE connection (HAP-BLE accessories speak HAP on every one).
        case leConnection = "LE connection"
    }
}
