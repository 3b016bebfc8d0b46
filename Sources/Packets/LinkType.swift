/// The link-layer header type of a capture, as libpcap reports it (`pcap_datalink`).
///
/// The values are libpcap's DLT_ numbers, which are what a `pcap_t` hands out; for the types
/// hapscope decodes they equal the LINKTYPE_ numbers stored in files, except raw IP, which
/// libpcap reports as DLT 12 (14 on OpenBSD) for LINKTYPE_RAW 101.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// BSD loopback: a 4-byte address family in the byte order of the capturing host.
    public static let null = LinkType(rawValue: 0)
    /// Ethernet II and IEEE 802.3, with any 802.1Q / 802.1ad VLAN tags.
    public static let ethernet = LinkType(rawValue: 1)
    /// Raw IP as libpcap reports it on most systems (DLT_RAW).
    public static let raw = LinkType(rawValue: 12)
    /// Raw IP as libpcap reports it on OpenBSD and BSD/OS (DLT_RAW there).
    public static let rawBSD = LinkType(rawValue: 14)
    /// Raw IP as stored in files (LINKTYPE_RAW).
    public static let rawFile = LinkType(rawValue: 101)
    /// OpenBSD loopback: a 4-byte address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// Linux cooked capture v1, what `tcpdump -i any` wrote before libpcap 1.10.
    public static let linuxCooked = LinkType(rawValue: 113)
    /// Raw IPv4 only.
    public static let ipv4 = LinkType(rawValue: 228)
    /// Raw IPv6 only.
    public static let ipv6 = LinkType(rawValue: 229)
    /// Linux cooked capture v2, what `tcpdump -i any` writes.
    public static let linuxCookedV2 = LinkType(rawValue: 276)
    /// Bluetooth HCI H4 with a 4-byte direction pseudo-header (LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR):
    /// decoded by the `Bluetooth` module, not by `PacketDecoder`.
    public static let bluetoothHCIH4WithPseudoHeader = LinkType(rawValue: 201)
    /// The BlueZ monitor channel (LINKTYPE_BLUETOOTH_LINUX_MONITOR): decoded by the `Bluetooth` module.
    public static let bluetoothLinuxMonitor = LinkType(rawValue: 254)

    /// Whether `PacketDecoder` can decode frames of this type.
    public var isDecodable: Bool {
        switch self {
        case .null, .ethernet, .raw, .rawBSD, .rawFile, .loop, .linuxCooked, .ipv4, .ipv6, .linuxCookedV2: true
        default: false
        }
    }

    /// Whether frames of this type hold HCI packets, which HAP over Bluetooth LE decodes.
    public var isBluetoothHCI: Bool {
        self == .bluetoothHCIH4WithPseudoHeader || self == .bluetoothLinuxMonitor
    }

    /// The usual name of the type, when it is one a user is likely to meet.
    public var name: String? {
        switch rawValue {
        case 0: "BSD loopback"
        case 1: "Ethernet"
        case 6: "IEEE 802.5 Token Ring"
        case 9: "PPP"
        case 12, 14, 101: "raw IP"
        case 50: "PPP in HDLC-like framing"
        case 104: "Cisco HDLC"
        case 105: "IEEE 802.11"
        case 108: "OpenBSD loopback"
        case 113: "Linux cooked capture"
        case 119: "IEEE 802.11 with Prism header"
        case 127: "IEEE 802.11 with radiotap header"
        case 147 ... 162: "user-defined"
        case 163: "IEEE 802.11 with AVS header"
        case 187: "Bluetooth HCI H4"
        case 192: "IEEE 802.11 with PPI header"
        case 195: "IEEE 802.15.4 with FCS"
        case 201: "Bluetooth HCI H4 with pseudo-header"
        case 215: "IEEE 802.15.4 without FCS"
        case 220: "Linux USB"
        case 228: "raw IPv4"
        case 229: "raw IPv6"
        case 230: "IEEE 802.15.4 without FCS, non-ASK PHY"
        case 239: "Netfilter log"
        case 251: "Bluetooth Low Energy link layer"
        case 253: "Linux netlink"
        case 256: "Bluetooth Low Energy link layer with radio header"
        case 276: "Linux cooked capture v2"
        case 283: "IEEE 802.15.4 with TAP header"
        default: nil
        }
    }

    /// `link type 105 (IEEE 802.11)`, or `link type 300` for a type without a known name.
    public var description: String {
        if let name { "link type \(rawValue) (\(name))" } else { "link type \(rawValue)" }
    }
}
