import Packets

/// Which way bytes flow on a connection. The client is the side that sent the SYN; for a
/// connection first seen mid-stream the reassembler guesses (see `TCPReassembler`).
public enum TCPDirection: Hashable, Sendable {
    case clientToServer
    case serverToClient

    public var reversed: TCPDirection { self == .clientToServer ? .serverToClient : .clientToServer }
}

/// Why the reassembler stopped following a connection.
public enum TCPCloseReason: Hashable, Sendable {
    /// Both sides sent FIN, and each stream was delivered (or reported as gaps) up to it.
    case fin
    case reset
    /// No packet for longer than the configured idle timeout.
    case idleTimeout
    /// Dropped to stay within the connection limit.
    case evicted
    /// A SYN with a new initial sequence number arrived for the same addresses and ports
    /// while the connection was open: its end was not captured, and a new connection begins.
    case portReused
    /// The input ended while the connection was open.
    case captureEnded
}

/// The consumer of reassembled streams. Calls arrive in capture order; for each connection and
/// direction, `didReceive` bytes and `didSkipGap` events together cover the stream exactly once,
/// in sequence order.
///
/// Calls are made from inside `TCPReassembler.process`, `finish` and `expireIdleConnections`,
/// which a delegate must not call from a callback.
public protocol TCPStreamDelegate: AnyObject {
    func tcpConnectionOpened(_ connection: TCPConnection)

    /// In-order stream bytes. `bytes` is valid only during the call; `packet` is the segment
    /// the bytes were captured in.
    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo)

    /// `byteCount` bytes of the stream were never captured (or were dropped by a limit). The
    /// next `didReceive` continues after them; consumers resynchronise. `packet` is the packet
    /// that revealed the gap: the peer's ACK beyond it, the segment the snap length cut, the
    /// segment that reached a buffering limit, or, at the close, the packet that closed the
    /// connection (its last packet when none did).
    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo)

    /// The connection ended; `packet` is the packet that ended it, if any.
    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?)
}
