import DNS
import Packets

/// Who browsed for which service.
public struct DiscoveryQueryEvent: Sendable {
    public let sender: Endpoint
    public let queries: [ServiceQuery]

    public init(sender: Endpoint, queries: [ServiceQuery]) {
        self.sender = sender
        self.queries = queries
    }
}
