import HAPCore
import HAPEvents
import Packets
import TCPReassembly

/// One call of the connection tracker on a HAP connection, as a value that can cross to another
/// thread: `HAPConnection`'s boundary (open, bytes received, a gap, a session begun before the
/// capture, close). A receive's bytes travel beside it (`ConnectionShipping.ship(_:carrying:toShard:)`):
/// copied once into the buffer of the chunk of calls it goes in, not into an array of their own.
package enum ConnectionCall: Sendable {
    case open(TCPConnectionFacts, controllerSends: TCPDirection, recognisedBy: ConnectionOpenedEvent.Recognition, deviceID: String?, packet: PacketInfo)
    case receive(connection: Int, byteCount: Int, TCPDirection, PacketInfo, TCPStreamOrigins)
    case gap(connection: Int, byteCount: UInt64, TCPDirection, PacketInfo, TCPStreamOrigins)
    case startedEncryptedBeforeCapture(connection: Int, PacketInfo, preferring: [UInt8]?)
    case close(connection: Int, TCPCloseReason, PacketInfo?, TCPConnectionEnd)
}

/// Where the tracker sends the calls of connections that run on shards (`--jobs`): the
/// scheduler, which notes each call's place in the reader's log and has the shard make it.
package protocol ConnectionShipping: AnyObject {
    /// The shard of the connections to `accessory`'s address: the same one for every
    /// connection to it.
    func shard(of accessory: Endpoint) -> Int
    /// `bytes`: a receive's (its `byteCount`), empty for the other calls.
    func ship(_ call: ConnectionCall, carrying bytes: UnsafeRawBufferPointer, toShard shard: Int)
    /// The reader began a new input file: the shards' connections store and find databases
    /// under its name (`AnalysisContext.currentInput`) from here on.
    func inputChanged(_ name: String?)
}

/// The HAP connections of one shard of a sharded run: the calls the tracker shipped, made on
/// `HAPConnection`s in this shard's own context, whose recorder keeps what they did.
package final class ConnectionShard {
    package let context: AnalysisContext
    private var connections: [Int: HAPConnection] = [:]

    package init(context: AnalysisContext) {
        self.context = context
    }

    /// Makes `call`; `bytes` are a receive's.
    package func make(_ call: ConnectionCall, bytes: UnsafeRawBufferPointer) {
        switch call {
        case .open(let tcp, let controllerSends, let recognisedBy, let deviceID, let packet):
            connections[tcp.id] = HAPConnection(
                tcp: tcp, controllerSends: controllerSends, recognisedBy: recognisedBy, deviceID: deviceID, context: context, packet: packet)
        case .receive(let id, _, let direction, let packet, let origins):
            connections[id]?.receive(bytes, direction: direction, packet: packet, origins: origins)
        case .gap(let id, let byteCount, let direction, let packet, let origins):
            connections[id]?.gap(byteCount, direction: direction, packet: packet, origins: origins)
        case .startedEncryptedBeforeCapture(let id, let packet, let preferred):
            connections[id]?.startedEncryptedBeforeCapture(packet: packet, preferring: preferred)
        case .close(let id, let reason, let packet, let end):
            connections.removeValue(forKey: id)?.close(reason: reason, packet: packet, tcpEnd: end)
        }
    }

    /// A shard for the connections to `accessory` among `count` by a stable hash of its address
    /// (FNV-1a of the address's text), for a scheduler that remembers no more addresses.
    package static func shard(of accessory: Endpoint, among count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in accessory.address.description.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }
}
