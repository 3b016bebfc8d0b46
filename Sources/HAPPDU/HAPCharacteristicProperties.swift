/// The HAP-Characteristic-Properties descriptor (a 16-bit little-endian bit field; HAP:
/// HAP Characteristic Properties; aiohomekit `controller/coap/structs.py`).
public struct HAPCharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let readable = HAPCharacteristicProperties(rawValue: 0x0001)
    public static let writable = HAPCharacteristicProperties(rawValue: 0x0002)
    public static let supportsAdditionalAuthorizationData = HAPCharacteristicProperties(rawValue: 0x0004)
    public static let requiresTimedWrite = HAPCharacteristicProperties(rawValue: 0x0008)
    /// Readable over a secured session (`pr`).
    public static let supportsSecureReads = HAPCharacteristicProperties(rawValue: 0x0010)
    /// Writable over a secured session (`pw`).
    public static let supportsSecureWrites = HAPCharacteristicProperties(rawValue: 0x0020)
    public static let hidden = HAPCharacteristicProperties(rawValue: 0x0040)
    /// Notifies in the connected state (`ev`).
    public static let notifiesEventsInConnectedState = HAPCharacteristicProperties(rawValue: 0x0080)
    public static let notifiesEventsInDisconnectedState = HAPCharacteristicProperties(rawValue: 0x0100)
    public static let supportsBroadcastNotify = HAPCharacteristicProperties(rawValue: 0x0200)

    /// The HAP-over-IP permission strings these properties amount to, in the order aiohomekit
    /// writes them (`to_dict`): `pr`, `pw`, `ev`, `aa`, `tw`, `hd`.
    public var permissions: [String] {
        var result: [String] = []
        if contains(.supportsSecureReads) { result.append("pr") }
        if contains(.supportsSecureWrites) { result.append("pw") }
        if contains(.notifiesEventsInConnectedState) { result.append("ev") }
        if contains(.supportsAdditionalAuthorizationData) { result.append("aa") }
        if contains(.requiresTimedWrite) { result.append("tw") }
        if contains(.hidden) { result.append("hd") }
        return result
    }
}

/// The HAP-Service-Properties value (HAP: HAP Service Properties).
public struct HAPServiceProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let primary = HAPServiceProperties(rawValue: 0x0001)
    public static let hidden = HAPServiceProperties(rawValue: 0x0002)
    public static let supportsConfiguration = HAPServiceProperties(rawValue: 0x0004)
}
