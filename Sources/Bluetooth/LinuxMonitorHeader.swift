import WireParsing

/// The header of LINKTYPE_BLUETOOTH_LINUX_MONITOR (254) frames: the BlueZ monitor channel's
/// adapter index and opcode, each 16 bits in network byte order (libpcap `pcap/bluetooth.h`,
/// `pcap_bluetooth_linux_monitor_header`; btsnoop files of datalink 2001 carry the same two
/// numbers in their record flags).
public struct LinuxMonitorHeader: Hashable, Sendable {
    public static let length = 4

    /// The adapter (`hciN`) the packet belongs to.
    public var adapterIndex: UInt16
    public var opcode: LinuxMonitorOpcode

    public init(adapterIndex: UInt16, opcode: LinuxMonitorOpcode) {
        self.adapterIndex = adapterIndex
        self.opcode = opcode
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        adapterIndex = try cursor.readUInt16BigEndian("the adapter index of a Linux monitor header")
        opcode = LinuxMonitorOpcode(rawValue: try cursor.readUInt16BigEndian("the opcode of a Linux monitor header"))
    }
}

/// What a Linux monitor record holds (BlueZ `src/shared/btsnoop.h`, BTSNOOP_OPCODE_*).
public struct LinuxMonitorOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let newIndex = LinuxMonitorOpcode(rawValue: 0)
    public static let deleteIndex = LinuxMonitorOpcode(rawValue: 1)
    public static let commandPacket = LinuxMonitorOpcode(rawValue: 2)
    public static let eventPacket = LinuxMonitorOpcode(rawValue: 3)
    public static let aclTransmitted = LinuxMonitorOpcode(rawValue: 4)
    public static let aclReceived = LinuxMonitorOpcode(rawValue: 5)
    public static let scoTransmitted = LinuxMonitorOpcode(rawValue: 6)
    public static let scoReceived = LinuxMonitorOpcode(rawValue: 7)
    public static let openIndex = LinuxMonitorOpcode(rawValue: 8)
    public static let closeIndex = LinuxMonitorOpcode(rawValue: 9)
    public static let indexInfo = LinuxMonitorOpcode(rawValue: 10)
    public static let vendorDiagnostic = LinuxMonitorOpcode(rawValue: 11)
    public static let systemNote = LinuxMonitorOpcode(rawValue: 12)
    public static let userLogging = LinuxMonitorOpcode(rawValue: 13)
    public static let controlOpen = LinuxMonitorOpcode(rawValue: 14)
    public static let controlClose = LinuxMonitorOpcode(rawValue: 15)
    public static let controlCommand = LinuxMonitorOpcode(rawValue: 16)
    public static let controlEvent = LinuxMonitorOpcode(rawValue: 17)
    public static let isoTransmitted = LinuxMonitorOpcode(rawValue: 18)
    public static let isoReceived = LinuxMonitorOpcode(rawValue: 19)

    /// The HCI packet type and direction of a record that carries an HCI packet; nil for the
    /// monitor's own records (index changes, notes, logging, management commands).
    public var hciPacket: (indicator: HCIPacketIndicator, direction: HCIDirection)? {
        switch self {
        case .commandPacket: (.command, .hostToController)
        case .eventPacket: (.event, .controllerToHost)
        case .aclTransmitted: (.aclData, .hostToController)
        case .aclReceived: (.aclData, .controllerToHost)
        case .scoTransmitted: (.synchronousData, .hostToController)
        case .scoReceived: (.synchronousData, .controllerToHost)
        case .isoTransmitted: (.isoData, .hostToController)
        case .isoReceived: (.isoData, .controllerToHost)
        default: nil
        }
    }

    public var description: String {
        let names = [
            "new index", "delete index", "command", "event", "ACL sent", "ACL received", "SCO sent", "SCO received",
            "open index", "close index", "index info", "vendor diagnostic", "system note", "user logging",
            "control open", "control close", "control command", "control event", "ISO sent", "ISO received",
        ]
        return Int(rawValue) < names.count ? names[Int(rawValue)] : "monitor opcode \(rawValue)"
    }
}
