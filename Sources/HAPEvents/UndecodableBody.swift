import WireParsing

/// A HAP JSON body that could not be read: which message it was, where it broke, and the request
/// that asked for it. Carried by a `undecodable-body` `CaptureProblem`, for the audit to judge.
public struct UndecodableBody: Sendable, Hashable {
    /// What the body was meant to be (HAP: `/characteristics` and `/prepare` bodies).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case readResponse = "read response"
        case writeResponse = "write response"
        case event = "EVENT"
        case writeRequest = "write request"
        case prepareRequest = "prepare request"

        /// Whether the accessory sent it.
        public var isFromAccessory: Bool {
            switch self {
            case .readResponse, .writeResponse, .event: true
            case .writeRequest, .prepareRequest: false
            }
        }

        public var description: String { rawValue }
    }

    public let kind: Kind
    /// Why the body could not be read; the offset counts from the body's first byte.
    public let error: DecodeError
    public let byteCount: Int
    /// For a response, the request it answers.
    public let request: HTTPMessageEvent.RequestReference?

    public init(kind: Kind, error: DecodeError, byteCount: Int, request: HTTPMessageEvent.RequestReference?) {
        self.kind = kind
        self.error = error
        self.byteCount = byteCount
        self.request = request
    }
}
