import Packets

/// One thing that happened in the capture, in HAP terms. The analyzer produces a single stream of
/// these in capture order; the model, the audit and every report consume it.
public struct HAPEvent: Sendable {
    /// The packet in which the event's evidence was completed: the one a user should open in
    /// Wireshark. Nil only for events about the input as a whole.
    public let packet: PacketInfo?
    public let kind: Kind

    public init(packet: PacketInfo?, kind: Kind) {
        self.packet = packet
        self.kind = kind
    }

    public enum Kind: Sendable {
        case problem(CaptureProblem)
        case advertisement(AdvertisementEvent)
        case mdnsQuery(DiscoveryQueryEvent)
    }
}

/// Receives the event stream.
public protocol HAPEventConsumer: AnyObject {
    func consume(_ event: HAPEvent)
}
