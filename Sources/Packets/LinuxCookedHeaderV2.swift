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
        let fixed = try cursor.read(count: Self.length, "a 20-byte Linux cooked v2 header")
        let etherType = fixed.bigEndian(UInt16.self, at: 0)
        interfaceIndex = fixed.bigEndian(at: 4)
        hardwareType = fixed.bigEndian(at: 8)
        packetType = fixed.bigEndian(at: 10)
        // The address (bytes 12 to 19) is padded to 8 bytes whatever its length says.
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
