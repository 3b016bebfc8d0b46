import Packets

/// How long the broadcast encryption key of an opened HAP-BLE encrypted notification had been in
/// use, judged by the Bluetooth LE transport from the capture's decrypted Protocol Configuration
/// exchange and the notification's GSN.
///
/// The key expires after 32,767 increments of the GSN since its generation: HomeKitADK
/// HAPBLEAccessoryServer+Broadcast.c stores the expiration GSN `gsn + 32767 − 1` (less 65535 when
/// above it) when it generates the key and discards the key when the GSN is incremented from
/// there; an accessory then sends no encrypted notification until a controller generates another
/// (quoting HAP R14 §7.4.7.4 Broadcast Encryption Key expiration and refresh).
public struct BLEBroadcastKeyLifetime: Sendable, Hashable {
    /// The GSN the notification was sealed under.
    public let broadcastGlobalStateNumber: UInt16
    /// The generation of the key in use (the accessory's latest Generate-Broadcast-Encryption-Key
    /// answered with success before the notification); nil when the capture holds none.
    public let generation: Generation?
    public let verdict: Verdict

    public init(broadcastGlobalStateNumber: UInt16, generation: Generation?, verdict: Verdict) {
        self.broadcastGlobalStateNumber = broadcastGlobalStateNumber
        self.generation = generation
        self.verdict = verdict
    }

    /// Where the key in use was generated, and the GSN it was generated at.
    public struct Generation: Sendable, Hashable {
        /// The connection of the session that asked for the key.
        public let connection: ConnectionInfo
        /// The accessory's success response to Generate-Broadcast-Encryption-Key.
        public let packet: PacketInfo
        /// The GSN counted from: the first the accessory stated at or after generating the key (its
        /// Get-All-Params answer in the same or a later Protocol Configuration on that connection,
        /// else its next regular advertisement). Never earlier than the true generation GSN, so an
        /// age counted from it is never more than the key's; nil when no GSN was stated before the
        /// notification.
        public let globalStateNumber: UInt16?
        /// The packet that stated that GSN.
        public let statedIn: PacketInfo?

        public init(connection: ConnectionInfo, packet: PacketInfo, globalStateNumber: UInt16?, statedIn: PacketInfo?) {
            self.connection = connection
            self.packet = packet
            self.globalStateNumber = globalStateNumber
            self.statedIn = statedIn
        }
    }

    public enum Verdict: Sendable, Hashable {
        /// `increments` GSN increments from the generation GSN to the notification's (65535 wraps
        /// to 1); the key expired at `expirationGSN`, and `expired` when the notification came at
        /// least 32,767 increments after the generation.
        case judged(increments: Int, expirationGSN: UInt16, expired: Bool)
        /// The capture holds no Generate-Broadcast-Encryption-Key answered by the accessory before
        /// the notification (it began after, or the session was not decrypted): not judged.
        case generationNotInCapture
        /// The generation is in the capture but the accessory stated no GSN after it before the
        /// notification: not judged.
        case generationGSNUnknown
    }

    /// Whether the notification was sealed under a key past its lifetime.
    public var isExpired: Bool {
        if case .judged(_, _, true) = verdict { true } else { false }
    }
}
