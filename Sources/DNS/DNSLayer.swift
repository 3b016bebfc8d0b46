import WireParsing

extension DecodeError.Layer {
    /// DNS, mDNS and DNS-SD messages. Offsets count from the start of the UDP payload.
    public static let dns = DecodeError.Layer("dns")
}
