import WireParsing

extension DecodeError.Layer {
    /// The link-layer header: Ethernet and VLAN tags, Linux cooked, BSD loopback, raw IP framing.
    public static let link = DecodeError.Layer("link")
    public static let ipv4 = DecodeError.Layer("ipv4")
    /// The IPv6 header and its extension headers.
    public static let ipv6 = DecodeError.Layer("ipv6")
    public static let udp = DecodeError.Layer("udp")
    public static let tcp = DecodeError.Layer("tcp")
}
