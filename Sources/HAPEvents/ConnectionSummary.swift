import Bluetooth
import Packets

/// The end of a HAP connection, with its counters.
public struct ConnectionSummary: Sendable {
    public let connection: ConnectionInfo
    public let deviceID: String?
    public let reason: ConnectionCloseReason
    public let handshakeSeen: Bool
    public let firstPacket: PacketInfo
    public let lastPacket: PacketInfo
    /// TCP counters per HAP direction (HAP over IP).
    public let tcp: [HAPDirection: TCPCounters]
    /// Encrypted frames per direction, when the session was encrypted.
    public let frames: [HAPDirection: FrameStatistics]
    public let encrypted: Bool
    /// Directions whose frames were decrypted.
    public let decrypted: Set<HAPDirection>
    /// What the connection carried, counted in its transport's units.
    public let carried: Traffic
    /// HAP over Bluetooth LE, for a connection `closed` by HCI Disconnection Complete: the reason
    /// it carried (Bluetooth Core Vol 1 Part F error codes, 0x13 the remote user terminated it).
    public let disconnectionReason: HCIStatus?
    /// The requests still waiting for their responses when the connection ended, oldest first.
    public let unansweredRequests: [UnansweredRequest]
    /// HAP over Bluetooth LE: the accessory database this connection read differs from what an
    /// earlier one read, under the same configuration number.
    public let unannouncedDatabaseChange: UnannouncedDatabaseChange?

    public init(
        connection: ConnectionInfo, deviceID: String?, reason: ConnectionCloseReason, handshakeSeen: Bool,
        firstPacket: PacketInfo, lastPacket: PacketInfo, tcp: [HAPDirection: TCPCounters],
        frames: [HAPDirection: FrameStatistics], encrypted: Bool, decrypted: Set<HAPDirection>, carried: Traffic,
        unansweredRequests: [UnansweredRequest] = [], disconnectionReason: HCIStatus? = nil,
        unannouncedDatabaseChange: UnannouncedDatabaseChange? = nil
    ) {
        self.connection = connection
        self.deviceID = deviceID
        self.reason = reason
        self.handshakeSeen = handshakeSeen
        self.firstPacket = firstPacket
        self.lastPacket = lastPacket
        self.tcp = tcp
        self.frames = frames
        self.encrypted = encrypted
        self.decrypted = decrypted
        self.carried = carried
        self.unansweredRequests = unansweredRequests
        self.disconnectionReason = disconnectionReason
        self.unannouncedDatabaseChange = unannouncedDatabaseChange
    }

    /// What a connection carried: one case per transport, so that a summary cannot count in the
    /// units of two.
    public enum Traffic: Sendable, Hashable {
        /// HAP over IP: HTTP messages, both directions.
        case http(messages: Int)
        /// HAP over CoAP: its messages, retransmissions and HAP PDUs.
        case coap(CoAPCounters)
        /// HAP over Bluetooth LE: its ATT PDUs and HAP PDUs.
        case bluetoothLE(BLECounters)
    }

    /// What a HAP-over-Bluetooth-LE connection carried.
    public struct BLECounters: Sendable, Hashable {
        /// ATT PDUs of the connection, both directions.
        public var attPDUs: Int
        /// HAP PDUs reassembled from characteristic writes and reads: requests and responses.
        public var hapPDUs: Int

        public init(attPDUs: Int, hapPDUs: Int) {
            self.attPDUs = attPDUs
            self.hapPDUs = hapPDUs
        }
    }

    /// What a HAP-over-CoAP connection carried.
    public struct CoAPCounters: Sendable, Hashable {
        /// CoAP messages, retransmissions included.
        public var messages: Int
        /// Messages sent again under a message ID already seen (RFC 7252 §4.5), identical or not.
        public var retransmissions: Int
        /// HAP PDUs decoded: requests, responses and event records.
        public var pdus: Int

        public init(messages: Int, retransmissions: Int, pdus: Int) {
            self.messages = messages
            self.retransmissions = retransmissions
            self.pdus = pdus
        }
    }

    /// A request the accessory had not answered when the connection ended.
    public struct UnansweredRequest: Sendable, Hashable {
        public let request: HTTPMessageEvent.RequestReference
        /// Seconds from the request's last packet to the end of the connection (the FIN or RST
        /// that closed it, or the capture's last packet of it).
        public let waitedSeconds: Double
        /// Whether every byte the accessory sent after the request was read (no bytes lost from
        /// the capture, no frame that failed or could not be decrypted): otherwise its answer may
        /// be among what could not be read.
        public let accessoryDirectionSeenWhole: Bool

        public init(request: HTTPMessageEvent.RequestReference, waitedSeconds: Double, accessoryDirectionSeenWhole: Bool = true) {
            self.request = request
            self.waitedSeconds = waitedSeconds
            self.accessoryDirectionSeenWhole = accessoryDirectionSeenWhole
        }

        /// Whether the capture shows it never answered: the connection was closed or reset with it
        /// outstanding, or it had waited past the slow mark by the time the capture ended (a
        /// request sent just before the capture stopped may simply not have been answered yet), and
        /// nothing the accessory sent was lost.
        public func isNeverAnswered(closedBy reason: ConnectionCloseReason) -> Bool {
            guard accessoryDirectionSeenWhole else { return false }
            return switch reason {
            case .closed, .reset: true
            case .captureEnded, .idleTimeout, .evicted, .superseded: waitedSeconds > ResponseTiming.slowResponseSeconds
            }
        }
    }

    /// A copy of the reassembler's counters, so that consumers need not import TCPReassembly.
    public struct TCPCounters: Sendable, Hashable {
        public var packets: Int
        public var payloadBytes: Int
        public var retransmissions: Int
        public var outOfOrderSegments: Int
        public var conflictingOverlaps: Int
        public var gaps: Int
        public var gapBytes: UInt64
        public var bytesDroppedByLimit: Int

        public init(
            packets: Int, payloadBytes: Int, retransmissions: Int, outOfOrderSegments: Int, conflictingOverlaps: Int,
            gaps: Int, gapBytes: UInt64, bytesDroppedByLimit: Int
        ) {
            self.packets = packets
            self.payloadBytes = payloadBytes
            self.retransmissions = retransmissions
            self.outOfOrderSegments = outOfOrderSegments
            self.conflictingOverlaps = conflictingOverlaps
            self.gaps = gaps
            self.gapBytes = gapBytes
            self.bytesDroppedByLimit = bytesDroppedByLimit
        }
    }
}
