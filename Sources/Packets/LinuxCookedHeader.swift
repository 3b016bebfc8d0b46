import WireParsing

/// A Linux cooked capture header, version 1 (DLT 113, LINKTYPE_LINUX_SLL):
/// `packet type (2) | ARPHRD type (2) | address length (2) | address (8) | protocol (2)`.
///
/// The protocol field holds an EtherType; libpcap puts VLAN tags the kernel stripped back in
/// after it, tagged as in Ethernet.
struct LinuxCookedHeader {
    static let length = 16

    let packetType: UInt16
    let hardwareType: UInt16
    let vlanTags: VLANTagStack
    var payload: LinkPayload { LinkPayload(etherType: vlanTags.etherType) }

    init(parsing cursor: inout ByteCursor, maximumVLANTags: Int) throws(DecodeError) {
        let fixed = try cursor.read(count: Self.length, "a 16-byte Linux cooked header")
        packetType = fixed.bigEndian(at: 0)
        hardwareType = fixed.bigEndian(at: 2)
        // The address (bytes 4 to 13) is padded to 8 bytes whatever its length says.
        let etherType = fixed.bigEndian(UInt16.self, at: 14)
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
