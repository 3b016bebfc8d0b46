import WireParsing

/// A Linux cooked capture header, version 2 (DLT 276, LINKTYPE_LINUX_SLL2), what
/// `tcpdump -i any` writes: `protocol (2) | reserved (2) | interface index (4) |
/// ARPHRD type (2) | packet type (1) | address length (1) | address (8)`.
struct LinuxCookedHeaderV2 {
    static let length = 20

    let interfaceIndex: UInt32
    let hardwareType: UInt16
    let packetType: UInt8
    let vlanTags: VLANTagStack
    var payload: LinkPayload { LinkPayload(etherType: vlanTags.etherType) }

    init(parsing cursor: inout ByteCursor, maximumVLANTags: Int) throws(DecodeError) {
        let etherType = try cursor.readUInt16BigEndian("the Linux cooked v2 protocol type")
        try cursor.skip(count: 2, "the Linux cooked v2 reserved field")
        interfaceIndex = try cursor.readUInt32BigEndian("the Linux cooked v2 interface index")
        hardwareType = try cursor.readUInt16BigEndian("the Linux cooked v2 ARPHRD type")
        packetType = try cursor.readUInt8("the Linux cooked v2 packet type")
        // The address is padded to 8 bytes whatever its length says, so the length is not needed.
        try cursor.skip(count: 9, "the Linux cooked v2 link-layer address")
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
