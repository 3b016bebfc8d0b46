import WireParsing

/// The header of LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201) frames: one 32-bit direction word in
/// network byte order (libpcap `pcap/bluetooth.h`, `pcap_bluetooth_h4_header`), whose low bit
/// says which way the packet went: 0 sent by the host, 1 received from the controller.
/// The H4 packet indicator and the packet follow.
public struct H4PseudoHeader: Hashable, Sendable {
    public static let length = 4

    /// The whole word as written; only bit 0 has a meaning.
    public var direction: UInt32

    public init(direction: UInt32) {
        self.direction = direction
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        direction = try cursor.readUInt32BigEndian("the 4-byte direction of an H4 pseudo-header")
    }

    // libpcap pcap-bt-linux.c writes 1 for incoming packets; Wireshark reads bit 0 alike.
    public var hciDirection: HCIDirection {
        direction & 1 == 1 ? .controllerToHost : .hostToController
    }
}
