import WireParsing

/// The 802.1Q / 802.1ad tags between a link header's type field and the payload, stacked
/// any number of times (Q-in-Q), each `TCI (2) | EtherType (2)`.
struct VLANTagStack {
    /// How many tags there were.
    let count: Int
    /// The VLAN identifier of the outermost tag, when there was a tag.
    let outermostIdentifier: UInt16?
    /// The EtherType after the innermost tag: what the frame carries.
    let etherType: UInt16

    /// Reads tags while `etherType` (the type field that precedes the cursor) names a tag.
    init(parsing cursor: inout ByteCursor, after etherType: UInt16, maximumCount: Int) throws(DecodeError) {
        var type = etherType
        var count = 0
        var outermost: UInt16?
        while EtherType.isVLANTag(type) {
            guard count < maximumCount else {
                throw cursor.limitExceeded("at most \(maximumCount) stacked VLAN tags")
            }
            let tagControl = try cursor.readUInt16BigEndian("an 802.1Q tag control field")
            type = try cursor.readUInt16BigEndian("the EtherType after an 802.1Q tag")
            if outermost == nil { outermost = tagControl & 0x0FFF }
            count += 1
        }
        self.count = count
        self.outermostIdentifier = outermost
        self.etherType = type
    }
}
