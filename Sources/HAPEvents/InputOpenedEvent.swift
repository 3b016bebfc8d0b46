import Packets

/// An input began: a capture file's first packet, or the live interface's.
public struct InputOpenedEvent: Sendable, Hashable {
    /// The file name (without its directory), `-` for standard input, or the interface name.
    public let name: String
    /// The link type, as a user reads it (`link type 1 (Ethernet)`).
    public let linkType: String
    /// When the input's first packet was captured; nil for an interface that delivered none.
    /// The first input's is the time reports count from.
    public let firstPacketTime: Timestamp?

    public init(name: String, linkType: String, firstPacketTime: Timestamp?) {
        self.name = name
        self.linkType = linkType
        self.firstPacketTime = firstPacketTime
    }
}
