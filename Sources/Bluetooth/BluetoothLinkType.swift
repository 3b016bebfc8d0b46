/// The libpcap link types whose frames hold one HCI packet behind a pseudo-header.
///
/// The numbers are the LINKTYPE_ values (`Packets.LinkType` names them too); the btsnoop and
/// PacketLogger readers hand out frames of these types, so one decode path serves every input.
public enum BluetoothLinkType: UInt32, Hashable, Sendable {
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: a 4-byte big-endian direction, then the H4 packet.
    case h4WithPseudoHeader = 201
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR: the BlueZ monitor channel's adapter index and opcode.
    case linuxMonitor = 254
}
