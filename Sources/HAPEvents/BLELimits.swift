import Bluetooth
import WireParsing

extension LimitName {
    public static let bleConnections = LimitName("ble.connections")
    public static let bleL2CAPFrame = LimitName("ble.l2cap-frame")
    public static let bleL2CAPPending = LimitName("ble.l2cap-pending")
    public static let bleGATTValue = LimitName("ble.gatt-value")
    public static let bleAttributes = LimitName("ble.attributes")
    public static let blePDUBody = LimitName("ble.pdu-body")
    public static let bleAdvertisers = LimitName("ble.advertisers")
    public static let bleBroadcastGSNSearch = LimitName("ble.broadcast-gsn-search")
}

/// Bounds on what HAP over Bluetooth LE holds: connections, L2CAP frames in reassembly, GATT
/// values being joined from long reads and writes, the attribute table discovery builds, HAP PDU
/// bodies joined from fragments, and the advertisers remembered.
public struct BLELimits: Sendable {
    /// LE connections tracked at once; beyond it the oldest is closed.
    public var maximumConnections = 64
    public var acl = ACLReassemblyLimits()
    /// The longest GATT value joined from Prepare Writes or Read Blobs. ATT caps an attribute
    /// value at 512 bytes (Core Vol 3 Part F §3.2.9); HAP-BLE fragments are far shorter.
    public var maximumGATTValueLength = 4096
    /// Services, characteristics and instance-ID descriptors remembered per connection.
    public var maximumAttributes = 4096
    /// The longest HAP PDU body joined from fragments (the body length is 16 bits).
    public var maximumPDUBodyLength = 65_535
    /// HomeKit advertisers whose latest advertisement is remembered (to tell new data from
    /// repeats); beyond it the oldest is forgotten.
    public var maximumAdvertisers = 1024
    /// Global state numbers tried, after the last one known, to open an encrypted notification:
    /// its GSN is the nonce and travels sealed (aiohomekit controller/ble/pairing.py tries the
    /// last GSN + 1, the last, then up to the last + 99).
    public var broadcastGSNSearch = 100

    public init() {}
}
