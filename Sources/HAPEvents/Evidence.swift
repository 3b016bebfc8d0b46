import Packets

/// One observation behind a finding: where to look in the capture and what was seen there.
///
/// Identical observations (same connection, same words) are listed once, with how often they
/// recurred and where they were last seen: an accessory repeating one malformed TXT record in
/// every announcement is one line of evidence, not fifty.
public struct Evidence: Sendable, Hashable, CustomStringConvertible {
    /// The packet to open in Wireshark; nil for a fact about the input as a whole (the setup code).
    public let packet: PacketInfo?
    /// The connection concerned; nil for mDNS and accessory-wide facts.
    public let connection: ConnectionInfo?
    /// What was seen, with the values involved.
    public let detail: String
    /// How many times this observation was made; 1 unless it recurred.
    public package(set) var occurrences = 1
    /// Where a recurring observation was last made.
    public package(set) var lastPacket: PacketInfo?

    public init(packet: PacketInfo?, connection: ConnectionInfo? = nil, detail: String) {
        self.packet = packet
        self.connection = connection
        self.detail = detail
    }

    /// When the packet was captured.
    public var time: Timestamp? { packet?.timestamp }

    /// `packet #34 (1796012651.252431 s) on #2 10.77.0.1:49202 → 10.77.0.2:51826: GET /accessories …`.
    public var description: String { description(naming: connection) }

    /// The description, naming the connection only when it is not `known` (the finding's own).
    public func description(omitting known: ConnectionInfo?) -> String {
        description(naming: connection == known ? nil : connection)
    }

    private func description(naming connection: ConnectionInfo?) -> String {
        var text = packet.map { "packet #\($0.number) (\(Self.format($0.timestamp)) s)" } ?? "capture-wide"
        if let connection { text += " on \(connection)" }
        text += ": \(detail)"
        if occurrences > 1 {
            text += " (seen \(occurrences) times" + (lastPacket.map { ", last in packet #\($0.number)" } ?? "") + ")"
        }
        return text
    }

    /// Unix time with the microseconds pcap records.
    public static func format(_ time: Timestamp) -> String {
        let microseconds = String(time.nanoseconds / 1000)
        return "\(time.seconds)." + String(repeating: "0", count: 6 - microseconds.count) + microseconds
    }
}
