import WireParsing

extension DecodeError.Layer {
    /// The libpcap pseudo-headers in front of an HCI packet: LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR
    /// and LINKTYPE_BLUETOOTH_LINUX_MONITOR.
    public static let bluetoothLink = DecodeError.Layer("bluetooth-link")
    /// HCI packets: the H4 indicator, commands, events, ACL, SCO and ISO headers.
    public static let hci = DecodeError.Layer("hci")
    /// L2CAP basic frames, LE signalling commands and the ACL reassembler.
    public static let l2cap = DecodeError.Layer("l2cap")
    /// Attribute protocol PDUs (Core Vol 3 Part F).
    public static let att = DecodeError.Layer("att")
    /// Security Manager protocol commands (Core Vol 3 Part H).
    public static let smp = DecodeError.Layer("smp")
    /// LE advertising data: the AD structures of advertising and scan-response payloads.
    public static let advertisingData = DecodeError.Layer("advertising-data")
}
