/// The message type (RFC 7252 §3, T).
public enum CoAPMessageType: UInt8, Hashable, Sendable, CustomStringConvertible {
    case confirmable = 0
    case nonConfirmable = 1
    case acknowledgement = 2
    case reset = 3

    public var description: String {
        switch self {
        case .confirmable: "CON"
        case .nonConfirmable: "NON"
        case .acknowledgement: "ACK"
        case .reset: "RST"
        }
    }
}
