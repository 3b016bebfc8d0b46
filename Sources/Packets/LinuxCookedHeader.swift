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
        packetType = try cursor.readUInt16BigEndian("the Linux cooked packet type")
        hardwareType = try cursor.readUInt16BigEndian("the Linux cooked ARPHRD type")
        // The address is padded to 8 bytes whatever its length says, so the length is not needed.
        try cursor.skip(count: 10, "the Linux cooked link-layer address")
        let etherType = try cursor.readUInt16BigEndian("the Linux cooked protocol type")
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
