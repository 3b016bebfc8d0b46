import Packets
import TCPReassembly

/// What a HAP connection knows of its TCP connection, as values: its number, endpoints and first
/// packet when it opened, and what changes with the segments (`TCPConnectionProgress`) as each
/// call delivers it. A `HAPConnection` never holds the reassembler's `TCPConnection`, so that it
/// can run on another thread than the reassembler (`--jobs`).
package struct TCPConnectionFacts: Sendable {
    let id: Int
    let client: Endpoint
    let server: Endpoint
    let firstPacket: PacketInfo
    var progress: TCPConnectionProgress

    package init(_ connection: TCPConnection) {
        (id, client, server, firstPacket) = (connection.id, connection.client, connection.server, connection.firstPacket)
        progress = TCPConnectionProgress(connection)
    }

    func source(of direction: TCPDirection) -> Endpoint {
        direction == .clientToServer ? client : server
    }

    func streamOrigin(_ direction: TCPDirection) -> UInt32? {
        direction == .clientToServer ? progress.origins.clientToServer : progress.origins.serverToClient
    }
}

/// What changes with a TCP connection's segments and a HAP connection reads: whether the
/// handshake was seen, and the streams' origins.
package struct TCPConnectionProgress: Sendable {
    var handshakeSeen: Bool
    var origins: TCPStreamOrigins

    package init(_ connection: TCPConnection) {
        handshakeSeen = connection.handshakeSeen
        origins = TCPStreamOrigins(connection)
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
    let progress: TCPConnectionProgress
    let lastPacket: PacketInfo
    let statistics: [TCPDirection: TCPDirectionStatistics]

    package init(_ connection: TCPConnection) {
        progress = TCPConnectionProgress(connection)
        lastPacket = connection.lastPacket
        statistics = [.clientToServer: connection.clientToServer, .serverToClient: connection.serverToClient]
    }

    func statistics(_ direction: TCPDirection) -> TCPDirectionStatistics {
        statistics[direction] ?? TCPDirectionStatistics()
    }
}
