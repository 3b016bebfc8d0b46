import Packets
import TCPReassembly

/// What a HAP connection knows of its TCP connection, as values: its number, endpoints and first
/// packet when it opened, and what changes with each segment (whether the handshake was seen, the
/// streams' origins) as delivered with each call. A `HAPConnection` never holds the reassembler's
/// `TCPConnection`, so that it can run on another thread than the reassembler (`--jobs`).
package struct TCPConnectionFacts: Sendable {
    let id: Int
    let client: Endpoint
    let server: Endpoint
    let firstPacket: PacketInfo
    var handshakeSeen: Bool
    var origins: TCPStreamOrigins

    package init(_ connection: TCPConnection) {
        id = connection.id
        client = connection.client
        server = connection.server
        firstPacket = connection.firstPacket
        handshakeSeen = connection.handshakeSeen
        origins = TCPStreamOrigins(connection)
    }

    func source(of direction: TCPDirection) -> Endpoint {
        direction == .clientToServer ? client : server
    }

    func streamOrigin(_ direction: TCPDirection) -> UInt32? {
        direction == .clientToServer ? origins.clientToServer : origins.serverToClient
    }
}

/// The sequence numbers of stream offset 0 in each direction, once known
/// (`TCPConnection.streamOrigin`): a direction's becomes known with its first segment, so each
/// call to a HAP connection carries them as they are then.
package struct TCPStreamOrigins: Sendable, Equatable {
    var clientToServer: UInt32?
    var serverToClient: UInt32?

    package init(_ connection: TCPConnection) {
        clientToServer = connection.streamOrigin(.clientToServer)
        serverToClient = connection.streamOrigin(.serverToClient)
    }
}

/// What the connection summary reports of a TCP connection when it closes.
package struct TCPConnectionEnd: Sendable {
    let handshakeSeen: Bool
    let lastPacket: PacketInfo
    let origins: TCPStreamOrigins
    let clientToServer: TCPDirectionStatistics
    let serverToClient: TCPDirectionStatistics

    package init(_ connection: TCPConnection) {
        handshakeSeen = connection.handshakeSeen
        lastPacket = connection.lastPacket
        origins = TCPStreamOrigins(connection)
        clientToServer = connection.clientToServer
        serverToClient = connection.serverToClient
    }

    func statistics(_ direction: TCPDirection) -> TCPDirectionStatistics {
        direction == .clientToServer ? clientToServer : serverToClient
    }
}
