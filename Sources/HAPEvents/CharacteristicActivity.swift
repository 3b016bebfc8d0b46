import HAPCatalog
import HAPJSON
import HAPPDU
import Packets
import TLV8

/// A characteristic read, write, event or (un)subscription: one entry of the timeline.
public struct CharacteristicActivity: Sendable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case read
        case write
        case event
        case subscribe
        case unsubscribe
    }

    public let connection: ConnectionInfo
    public let deviceID: String?
    public let kind: Kind
    public let id: CharacteristicID
    /// From the accessory database when the capture holds one.
    public let type: HAPUUID?
    public let name: String?
    public let unit: CharacteristicUnit?
    public let format: CharacteristicFormat?
    /// The value read, written or notified, typed by the characteristic's format where known.
    public let value: InterpretedValue?
    /// For a TLV8 value whose structure is known (camera stream management, Adaptive Lighting):
    /// the value read by its schema, with the offset where it broke if it did. Its key material
    /// is present only when the user asked for secrets (`--show-keys`); otherwise it is zeroed
    /// in `value` too.
    public let structure: TLV8StructuredValue?
    /// HAP status of the read or write (nil when the accessory reported none, i.e. success).
    public let status: HAPStatus?
    /// The HAP PDU status the accessory answered (HAP-BLE, HAP over CoAP) where it was not
    /// success; `status` is hapscope's reading of it in HAP-over-IP terms.
    public let pduStatus: HAPPDUStatus?
    /// For writes: part of a timed write (`/prepare` first).
    public let timedWrite: Bool
    /// For writes: when the request was sent (the event's packet is the response).
    public let requestPacket: PacketInfo?
    /// Whether the accessory answered at all (a write with no response before the connection ended).
    public let answered: Bool
    /// The accessory served this read or write outside a secured session although the
    /// characteristic allows it only inside one (HAP-BLE: Secure Read or Secure Write without
    /// Read or Write in its properties; HomeKitADK HAPBLEProcedure.c answers Insufficient
    /// Authentication there). Judged by the transport, which knows the properties.
    public let servedWithoutRequiredSession: Bool
    /// HAP-BLE: this read, the first of the characteristic on its connection, found another value
    /// than the controller last knew on an earlier connection, for a characteristic that notifies
    /// in the disconnected state, while the accessory's advertisements kept the same Global State
    /// Number from before that connection to this one. Judged by the transport, which sees the
    /// advertisements, the properties and the values.
    public let unannouncedChange: UnannouncedValueChange?
    /// How long the accessory took to answer the request that carried this read, write or
    /// (un)subscription, where the transport times requests per activity (HAP over CoAP: one
    /// request body of PDUs, one response body). HAP over IP times its HTTP messages instead
    /// (`HTTPMessageEvent.responseTiming`).
    public let responseTiming: ResponseTiming?

    public init(
        connection: ConnectionInfo, deviceID: String?, kind: Kind, id: CharacteristicID, type: HAPUUID? = nil,
        name: String? = nil, unit: CharacteristicUnit? = nil, format: CharacteristicFormat? = nil,
        value: InterpretedValue? = nil, structure: TLV8StructuredValue? = nil, status: HAPStatus? = nil, timedWrite: Bool = false,
        requestPacket: PacketInfo? = nil, answered: Bool = true, servedWithoutRequiredSession: Bool = false,
        responseTiming: ResponseTiming? = nil, pduStatus: HAPPDUStatus? = nil, unannouncedChange: UnannouncedValueChange? = nil
    ) {
        self.connection = connection
        self.deviceID = deviceID
        self.kind = kind
        self.id = id
        self.type = type
        self.name = name
        self.unit = unit
        self.format = format
        self.value = value
        self.structure = structure
        self.status = status
        self.pduStatus = pduStatus
        self.timedWrite = timedWrite
        self.requestPacket = requestPacket
        self.answered = answered
        self.servedWithoutRequiredSession = servedWithoutRequiredSession
        self.responseTiming = responseTiming
        self.unannouncedChange = unannouncedChange
    }
}
