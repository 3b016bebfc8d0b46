import HAPCatalog
import HAPJSON
import Packets
import WireParsing

/// An `/accessories` response: the accessory database, and how it differs from the previous one
/// seen for the same accessory.
public struct AccessoryDatabaseEvent: Sendable {
    public let connection: ConnectionInfo
    /// The accessory's device id, when the connection is tied to one.
    public let deviceID: String?
    public let database: AccessoryDatabase?
    /// Why the body could not be read as a database; the offset counts from the body's first byte.
    public let error: DecodeError?
    /// Changes from the previous database of the same accessory; nil for the first.
    public let diff: AccessoryDatabaseDiff?
    public let bodyByteCount: Int
}

/// A characteristic read, write or event: one entry of the timeline.
public struct CharacteristicActivity: Sendable {
    public enum Kind: String, Sendable, Hashable {
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
    /// HAP status of the read or write (nil when the accessory reported none, i.e. success).
    public let status: HAPStatus?
    /// For writes: part of a timed write (`/prepare` first).
    public let timedWrite: Bool
    /// For writes: when the request was sent (the event's packet is the response).
    public let requestPacket: PacketInfo?
    /// Whether the accessory answered at all (a write with no response before the connection ended).
    public let answered: Bool
}

/// The end of a HAP connection.
public struct ConnectionSummary: Sendable {
    public let connection: ConnectionInfo
    public let deviceID: String?
    public let reason: String
    public let handshakeSeen: Bool
    public let firstPacket: PacketInfo
    public let lastPacket: PacketInfo
    /// TCP counters per HAP direction.
    public let tcp: [HAPDirection: TCPCounters]
    /// Encrypted frames per direction, when the session was encrypted.
    public let frames: [HAPDirection: FrameStatistics]
    public let encrypted: Bool
    /// Directions whose frames were decrypted.
    public let decrypted: Set<HAPDirection>
    public let httpMessages: Int

    /// A copy of the reassembler's counters, so reports need not import TCPReassembly.
    public struct TCPCounters: Sendable, Hashable {
        public var packets: Int
        public var payloadBytes: Int
        public var retransmissions: Int
        public var outOfOrderSegments: Int
        public var conflictingOverlaps: Int
        public var gaps: Int
        public var gapBytes: UInt64
        public var bytesDroppedByLimit: Int
    }
}
