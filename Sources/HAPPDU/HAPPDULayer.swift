import WireParsing

extension DecodeError.Layer {
    /// HAP PDUs (HAP-BLE and HAP over CoAP): headers, fragments, bodies and the advertisement.
    public static let hapPDU = DecodeError.Layer("hap-pdu")
}
