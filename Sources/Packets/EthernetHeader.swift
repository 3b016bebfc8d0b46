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
        let fixed = try cursor.read(count: Self.length, "a 14-byte Ethernet header")
        let etherType = fixed.bigEndian(UInt16.self, at: 12)
        vlanTags = try VLANTagStack(parsing: &cursor, after: etherType, maximumCount: maximumVLANTags)
    }
}
