import WireParsing

/// Something in the input that could not be analysed as it should: reported with the packet it
/// was found in, while the analysis of everything else goes on.
public struct CaptureProblem: Sendable, Hashable, CustomStringConvertible {
    /// A stable name for the kind of problem, used in JSON and to count problems by kind.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let captureFile = Kind(rawValue: "capture-file")
        public static let unsupportedLinkType = Kind(rawValue: "unsupported-link-type")
        public static let undecodablePacket = Kind(rawValue: "undecodable-packet")
        public static let undecodableMDNS = Kind(rawValue: "undecodable-mdns")
        public static let undecodableHTTP = Kind(rawValue: "undecodable-http")
        public static let undecodableBody = Kind(rawValue: "undecodable-body")
        public static let streamGap = Kind(rawValue: "stream-gap")
        public static let limitReached = Kind(rawValue: "limit-reached")
        public static let keyLog = Kind(rawValue: "key-log")
        /// A TLV8 characteristic value that breaks the structure of its characteristic.
        public static let undecodableValue = Kind(rawValue: "undecodable-value")
    }

    public let kind: Kind
    public let message: String
    /// The HAP connection and direction concerned, for problems inside one.
    public let connection: ConnectionInfo?
    public let direction: HAPDirection?
    /// For `limitReached`: which bound.
    public let limit: LimitName?
    /// For `undecodableBody`: which body, where it broke and what asked for it.
    public let body: UndecodableBody?

    public init(
        _ kind: Kind, _ message: String, connection: ConnectionInfo? = nil, direction: HAPDirection? = nil,
        limit: LimitName? = nil, body: UndecodableBody? = nil
    ) {
        self.kind = kind
        self.message = message
        self.connection = connection
        self.direction = direction
        self.limit = limit
        self.body = body
    }

    public var description: String { message }
}
