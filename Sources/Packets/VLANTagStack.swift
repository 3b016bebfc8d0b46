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
            let tag = try cursor.read(count: 4, "a 4-byte 802.1Q tag")
            let tagControl = tag.bigEndian(UInt16.self, at: 0)
            type = tag.bigEndian(at: 2)
            if outermost == nil { outermost = tagControl & 0x0FFF }
            count += 1
        }
        self.count = count
        self.outermostIdentifier = outermost
        self.etherType = type
    }
}
