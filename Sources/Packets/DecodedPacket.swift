/// What `PacketDecoder` made of one captured frame.
///
/// Payload pointers inside point into the frame, or into the decoder's reassembly buffer for a
/// datagram completed from fragments. They are valid until the next call to
/// `PacketDecoder.decode` and no longer than the frame bytes themselves.
public enum DecodedPacket {
    case tcp(TCPSegment)
    case udp(UDPDatagram)
    /// The link layer carried something other than IPv4 or IPv6, such as ARP.
    case notIP(LinkProtocol)
    /// An IP packet whose payload is neither TCP nor UDP: ICMP, IGMP, ESP, an IPv6 packet with
    /// no next header, …
    case otherIPProtocol(OtherIPPacket)
    /// An IP fragment, held until the rest of its datagram arrives.
    case fragmentBuffered
}

/// What a link-layer frame carried when it was not IP.
public enum LinkProtocol: Hashable, Sendable {
    /// An EtherType (Ethernet, VLAN tags, the protocol field of Linux cooked captures), such as
    /// 0x0806 for ARP.
    case etherType(UInt16)
    /// An IEEE 802.3 frame, whose type field is a length (1500 or less): LLC, STP, CDP, …
    case ieee8023
    /// A BSD loopback address family other than IPv4 or IPv6.
    case addressFamily(UInt32)
}

/// An IP packet carrying a protocol other than TCP or UDP.
public struct OtherIPPacket: Hashable, Sendable {
    public var packet: PacketInfo
    public var source: IPAddress
    public var destination: IPAddress
    /// The protocol of the payload: for IPv6, the Next Header value after the last extension
    /// header hapscope walks (ESP and No Next Header end the walk).
    public var ipProtocol: IPProtocol

    public init(packet: PacketInfo, source: IPAddress, destination: IPAddress, ipProtocol: IPProtocol) {
        self.packet = packet
        self.source = source
        self.destination = destination
        self.ipProtocol = ipProtocol
    }
}
