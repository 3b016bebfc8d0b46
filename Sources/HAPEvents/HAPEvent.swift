import Packets

/// One thing that happened in the capture, in HAP terms: the one contract between the analysis
/// and everything that consumes it (the model, the audit, the reports, the exports).
///
/// The analysis produces a single stream of these in capture order, whatever the transport:
/// HAP over IP, over Bluetooth LE and over Thread emit the same pairing, session, database and
/// characteristic events, each naming its connection (`ConnectionInfo`) and so its transport.
/// Every payload has a public initialiser, so a rule or a report can be tested on built values.
public struct HAPEvent: Sendable {
    /// The packet in which the event's evidence was completed: the one a user should open in
    /// Wireshark. Nil only for events about the input as a whole.
    public let packet: PacketInfo?
    public let kind: Kind

    public init(packet: PacketInfo?, kind: Kind) {
        self.packet = packet
        self.kind = kind
    }

    public indirect enum Kind: Sendable {
        /// A capture file was opened (or the live interface started).
        case inputOpened(InputOpenedEvent)
        /// Something could not be analysed; the rest goes on.
        case problem(CaptureProblem)
        case advertisement(AdvertisementEvent)
        /// A HomeKit advertisement of HAP over Bluetooth LE with new data.
        case bleAdvertisement(BLEAdvertisementEvent)
        case mdnsQuery(DiscoveryQueryEvent)
        /// A connection was recognised as HAP.
        case connectionOpened(ConnectionOpenedEvent)
        /// One HTTP message of HAP over IP.
        case httpMessage(HTTPMessageEvent)
        /// One pair-setup, pair-verify or `/pairings` message, decoded.
        case pairingMessage(PairingMessageEvent)
        /// A pairing procedure ended (completed, failed or cut off), with its checks and timings.
        case pairingExchange(PairingExchangeEvent)
        /// The connection switched to encrypted messages.
        case sessionStarted(SessionStartEvent)
        /// A direction of a session already encrypted when the capture started was joined (or
        /// could not be).
        case sessionJoined(SessionJoinEvent)
        case sessionProblem(SessionProblemEvent)
        /// Plaintext recovered from an encrypted session, for consumers that rebuild the
        /// capture (emitted only when the analysis is asked to).
        case decryptedData(DecryptedDataEvent)
        case accessoryDatabase(AccessoryDatabaseEvent)
        /// An accessory database read from a dump file, an input with no packets.
        case databaseDump(DatabaseDumpEvent)
        case characteristic(CharacteristicActivity)
        case connectionClosed(ConnectionSummary)
        /// The input ended; totals for the whole run.
        case inputEnded(InputSummary)
    }
}
