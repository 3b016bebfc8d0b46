/// Why a connection ended. Renderers choose the words.
public enum ConnectionCloseReason: String, Sendable, Hashable, CaseIterable {
    /// A FIN (HAP over IP) or an orderly disconnection.
    case closed = "fin"
    /// A TCP RST.
    case reset = "rst"
    /// Nothing was seen on it for the idle timeout.
    case idleTimeout = "idle-timeout"
    /// Dropped to stay within the connection limit.
    case evicted = "evicted"
    /// Still open when the capture ended.
    case captureEnded = "capture-ended"
    /// A new connection on the same endpoints replaced it.
    case superseded = "superseded"
}
