import WireParsing

/// An Ethernet II / IEEE 802.3 header (DLT 1) with its VLAN tags.
///
/// `destination (6) | source (6) | type (2)`, then any 802.1Q / 802.1ad tags. The frame check
/// sequence, when a capture keeps it, trails the payload and is cut off by the IP length.
struct EthernetHeader {
    static let length = 14

    let vlanTags: VLANTagStack
    var payload: LinkPayload { LinkPayload(etherType: vlanTags.etherType) }

    init(parsing cursor: inout ByteCursor, maximumVLANTags: Int) throws(DecodeError) {
        try cursor.skip(count: 12, "the Ethernet destination and source addresses")
        let etherType = try cursor.readUInt16BigEndian("the Ethernet type field")
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
