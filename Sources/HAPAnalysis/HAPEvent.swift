import Packets

/// One thing that happened in the capture, in HAP terms. The analyzer produces a single stream of
/// these in capture order; the model, the audit and every report consume it.
public struct HAPEvent: Sendable {
    /// The packet in which the event's evidence was completed: the one a user should open in
    /// Wireshark. Nil only for events about the input as a whole.
    public let packet: PacketInfo?
    public let kind: Kind

    public init(packet: PacketInfo?, kind: Kind) {
        self.packet = packet
        self.kind = kind
    }

    public indirect enum Kind: Sendable {
        /// A capture file was opened (or the live interface started).
        case inputOpened(InputOpenedEvent)
        /// Something could not be analysed; the rest goes on.
        case problem(CaptureProblem)
        case advertisement(AdvertisementEvent)
        case mdnsQuery(DiscoveryQueryEvent)
        /// A TCP connection was recognised as HAP.
        case connectionOpened(ConnectionEvent)
        case httpMessage(HTTPMessageEvent)
        /// One pair-setup, pair-verify or `/pairings` message, decoded.
        case pairingMessage(PairingMessageEvent)
        /// A pairing procedure ended (completed, failed or cut off), with its checks and timings.
        case pairingExchange(PairingExchangeEvent)
        /// The connection switched to encrypted frames.
        case sessionStarted(SessionStartEvent)
        case sessionProblem(SessionProblemEvent)
        case accessoryDatabase(AccessoryDatabaseEvent)
        case characteristic(CharacteristicActivity)
        case connectionClosed(ConnectionSummary)
        /// The input ended; totals for the whole run.
        case inputEnded(InputSummary)
    }
}

/// Receives the event stream.
public protocol HAPEventConsumer: AnyObject {
    func consume(_ event: HAPEvent)
}

/// Which way a HAP message went.
public enum HAPDirection: String, Sendable, Hashable, CustomStringConvertible {
    case controllerToAccessory = "controller-to-accessory"
    case accessoryToController = "accessory-to-controller"

    public var description: String { rawValue }
    public var reversed: HAPDirection { self == .controllerToAccessory ? .accessoryToController : .controllerToAccessory }
}

/// A HAP connection as events name it: the TCP connection number (as in `hapscope stats`) and the
/// two endpoints in their HAP roles.
public struct ConnectionInfo: Sendable, Hashable, CustomStringConvertible {
    public let id: Int
    public let controller: Endpoint
    public let accessory: Endpoint

    public init(id: Int, controller: Endpoint, accessory: Endpoint) {
        self.id = id
        self.controller = controller
        self.accessory = accessory
    }

    public var description: String { "#\(id) \(controller) → \(accessory)" }
}

public struct InputOpenedEvent: Sendable {
    /// The file name, `-` for standard input, or the interface name.
    public let name: String
    public let linkType: String
}

public struct ConnectionEvent: Sendable {
    public let connection: ConnectionInfo
    /// The accessory's device id, when discovery tied its endpoint to one.
    public let deviceID: String?
    /// Whether the TCP handshake was captured; if not, the connection was already open.
    public let handshakeSeen: Bool
    /// Why hapscope decided this connection speaks HAP.
    public let recognisedBy: Recognition

    public enum Recognition: String, Sendable {
        case hapRequest = "HAP request"
        case advertisedEndpoint = "advertised endpoint"
    }
}

/// Totals for the whole run.
public struct InputSummary: Sendable {
    public var packets = 0
    public var bytes = 0
    public var firstPacketTime: Timestamp?
    public var lastPacketTime: Timestamp?
    public var tcpConnections = 0
    public var hapConnections = 0
    public var udpDatagrams = 0
    public var mdnsMessages = 0
    /// Packets that were neither TCP nor UDP over IP, or not IP at all.
    public var otherPackets = 0
    public var undecodablePackets = 0
    /// How often each resource limit was reached, by name.
    public var limitsReached: [String: Int] = [:]
}
