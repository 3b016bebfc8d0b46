import WireParsing

/// The link-layer header of a frame of any supported link type, reduced to what follows it.
struct LinkHeader {
    let payload: LinkPayload

    /// Reads the header of `linkType` and leaves the cursor on the network-layer header.
    init(parsing cursor: inout ByteCursor, linkType: LinkType, maximumVLANTags: Int) throws(DecodeError) {
        switch linkType {
        case .ethernet:
            payload = try EthernetHeader(parsing: &cursor, maximumVLANTags: maximumVLANTags).payload
        case .linuxCookedV2:
            payload = try LinuxCookedHeaderV2(parsing: &cursor, maximumVLANTags: maximumVLANTags).payload
        case .linuxCooked:
            payload = try LinuxCookedHeader(parsing: &cursor, maximumVLANTags: maximumVLANTags).payload
        case .raw, .rawBSD, .rawFile:
            payload = .ipOfEitherVersion
        case .ipv4:
            payload = .ipv4
        case .ipv6:
            payload = .ipv6
        case .null:
            payload = try LoopbackHeader(parsingNull: &cursor).payload
        case .loop:
            payload = try LoopbackHeader(parsingLoop: &cursor).payload
        default:
            throw DecodeError(.unsupported, layer: .link, offset: cursor.offset, expected: "a supported link type: \(linkType) is not supported")
        }
    }
}
