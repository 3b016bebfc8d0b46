import WireParsing

extension DecodeError.Layer {
    /// CoAP messages (RFC 7252) and block-wise transfers (RFC 7959).
    public static let coap = DecodeError.Layer("coap")
}
