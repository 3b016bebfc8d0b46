/// What a link-layer header says follows it.
enum LinkPayload: Hashable {
    case ipv4
    case ipv6
    /// Raw IP framing without a type field: the IP version nibble decides.
    case ipOfEitherVersion
    case other(LinkProtocol)

    /// The payload an EtherType announces (Ethernet, VLAN tags, Linux cooked captures).
    init(etherType: UInt16) {
        switch etherType {
        case EtherType.ipv4: self = .ipv4
        case EtherType.ipv6: self = .ipv6
        default: self = .other(etherType <= EtherType.maximumIEEE8023Length ? .ieee8023 : .etherType(etherType))
        }
    }
}

/// EtherType values hapscope acts on (IEEE "EtherType" registry).
enum EtherType {
    static let ipv4: UInt16 = 0x0800
    static let ipv6: UInt16 = 0x86DD
    /// IEEE 802.1Q customer VLAN tag.
    static let vlan: UInt16 = 0x8100
    /// IEEE 802.1ad service VLAN tag (Q-in-Q).
    static let serviceVLAN: UInt16 = 0x88A8
    /// The pre-standard Q-in-Q tag some switches still send.
    static let legacyQinQ: UInt16 = 0x9100
    /// IEEE 802.3: a type field of 1500 or less is the frame's length, and LLC follows.
    static let maximumIEEE8023Length: UInt16 = 0x05FF

    static func isVLANTag(_ etherType: UInt16) -> Bool {
        etherType == vlan || etherType == serviceVLAN || etherType == legacyQinQ
    }
}
