import WireParsing

/// An HCI event packet (Core Vol 4 Part E §5.4.4): event code (1), parameter length (1),
/// parameters, decoded for the events the analysis reads and kept as bytes otherwise.
///
/// The cursor is positioned after the H4 indicator and must end with the parameters. Each
/// decoded event checks its own length: missing bytes are truncated when the packet itself was
/// cut, malformed when the parameter length announces fewer bytes than the event needs.
public struct HCIEvent: Hashable, Sendable {
    public var code: HCIEventCode
    /// The parameters as sent.
    public var parameters: [UInt8]
    public var content: Content

    public enum Content: Hashable, Sendable {
        case disconnectionComplete(DisconnectionComplete)
        case encryptionChange(EncryptionChange)
        case commandComplete(CommandComplete)
        case commandStatus(CommandStatus)
        case numberOfCompletedPackets([CompletedPackets])
        case leMeta(LEMetaEvent)
        /// An event this decoder keeps only as its code and parameter bytes.
        case other
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.offset
        code = HCIEventCode(rawValue: try cursor.readUInt8("an HCI event code"))
        let length = Int(try cursor.readUInt8("an HCI event parameter length"))
        let parameterStart = cursor.offset
        let span = try cursor.read(count: length, "the \(length) bytes of \(code) parameters")
        try cursor.requireEnd(after: "an HCI event", startingAt: start)
        parameters = Array(span)
        // Inside the parameters, running short means the parameter length was too small for
        // the event: the sender's fault, since the whole parameter block is present.
        var parameterCursor = ByteCursor(span, layer: cursor.layer, baseOffset: parameterStart)
        do {
            content = try Self.decodeContent(code, &parameterCursor)
        } catch where error.code == .truncated {
            var error = error
            error.code = .malformed
            error.expected += ", within the \(length)-byte parameter length of \(code)"
            throw error
        }
    }

    private static func decodeContent(_ code: HCIEventCode, _ cursor: inout ByteCursor) throws(DecodeError) -> Content {
        switch code {
        case .disconnectionComplete:
            return .disconnectionComplete(try DisconnectionComplete(parsing: &cursor))
        case .encryptionChange:
            return .encryptionChange(try EncryptionChange(parsing: &cursor, hasKeySize: false))
        case .encryptionChangeV2:
            return .encryptionChange(try EncryptionChange(parsing: &cursor, hasKeySize: true))
        case .commandComplete:
            return .commandComplete(try CommandComplete(parsing: &cursor))
        case .commandStatus:
            return .commandStatus(try CommandStatus(parsing: &cursor))
        case .numberOfCompletedPackets:
            return .numberOfCompletedPackets(try CompletedPackets.list(parsing: &cursor))
        case .leMeta:
            return .leMeta(try LEMetaEvent(parsing: &cursor))
        default:
            return .other
        }
    }
}

/// Disconnection Complete (0x05): status (1), connection handle (2), reason (1).
public struct DisconnectionComplete: Hashable, Sendable {
    public var status: HCIStatus
    public var handle: UInt16
    public var reason: HCIStatus

    public init(status: HCIStatus, handle: UInt16, reason: HCIStatus) {
        self.status = status
        self.handle = handle
        self.reason = reason
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        status = HCIStatus(rawValue: try cursor.readUInt8("the status of Disconnection Complete"))
        handle = try cursor.readConnectionHandle("the connection handle of Disconnection Complete")
        reason = HCIStatus(rawValue: try cursor.readUInt8("the reason of Disconnection Complete"))
    }
}

/// Encryption Change (0x08): status (1), connection handle (2), encryption enabled (1); v2
/// (0x59) adds the key size (1).
public struct EncryptionChange: Hashable, Sendable {
    public var status: HCIStatus
    public var handle: UInt16
    /// 0 off, 1 on (AES-CCM on LE), 2 on with AES-CCM on BR/EDR.
    public var encryptionEnabled: UInt8
    /// Only in the v2 event.
    public var keySize: UInt8?

    public var isEncrypted: Bool { status == .success && encryptionEnabled != 0 }

    public init(status: HCIStatus, handle: UInt16, encryptionEnabled: UInt8, keySize: UInt8? = nil) {
        self.status = status
        self.handle = handle
        self.encryptionEnabled = encryptionEnabled
        self.keySize = keySize
    }

    public init(parsing cursor: inout ByteCursor, hasKeySize: Bool) throws(DecodeError) {
        status = HCIStatus(rawValue: try cursor.readUInt8("the status of Encryption Change"))
        handle = try cursor.readConnectionHandle("the connection handle of Encryption Change")
        encryptionEnabled = try cursor.readUInt8("the encryption state of Encryption Change")
        keySize = hasKeySize ? try cursor.readUInt8("the key size of Encryption Change v2") : nil
    }
}

/// Command Complete (0x0E): the number of commands the host may send (1), the opcode (2) of
/// the command that completed, and its return parameters, whose first byte is a status for
/// almost every command.
public struct CommandComplete: Hashable, Sendable {
    public var allowedCommandPackets: UInt8
    public var opcode: HCIOpcode
    public var returnParameters: [UInt8]

    public init(allowedCommandPackets: UInt8, opcode: HCIOpcode, returnParameters: [UInt8]) {
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
        self.returnParameters = returnParameters
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        allowedCommandPackets = try cursor.readUInt8("the command credit of Command Complete")
        opcode = HCIOpcode(rawValue: try cursor.readUInt16LittleEndian("the opcode of Command Complete"))
        returnParameters = Array(cursor.readRemaining())
    }

    /// The status in the first return parameter; nil for the no-op opcode 0, which only
    /// grants credit, and when there are no return parameters.
    public var status: HCIStatus? {
        guard opcode.rawValue != 0, let first = returnParameters.first else { return nil }
        return HCIStatus(rawValue: first)
    }
}

/// Command Status (0x0F): status (1), the number of commands the host may send (1), opcode (2).
public struct CommandStatus: Hashable, Sendable {
    public var status: HCIStatus
    public var allowedCommandPackets: UInt8
    public var opcode: HCIOpcode

    public init(status: HCIStatus, allowedCommandPackets: UInt8, opcode: HCIOpcode) {
        self.status = status
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        status = HCIStatus(rawValue: try cursor.readUInt8("the status of Command Status"))
        allowedCommandPackets = try cursor.readUInt8("the command credit of Command Status")
        opcode = HCIOpcode(rawValue: try cursor.readUInt16LittleEndian("the opcode of Command Status"))
    }
}

/// One entry of Number Of Completed Packets (0x13): packets of one connection the controller
/// has finished with.
public struct CompletedPackets: Hashable, Sendable {
    public var handle: UInt16
    public var count: UInt16

    public init(handle: UInt16, count: UInt16) {
        self.handle = handle
        self.count = count
    }

    /// The event's parameters: the number of handles (1), then a handle (2) and a count (2)
    /// for each, in that order per entry (as the Linux kernel's `hci_num_comp_pkts_evt` and
    /// Bumble read them). The count byte must account for every remaining byte.
    static func list(parsing cursor: inout ByteCursor) throws(DecodeError) -> [CompletedPackets] {
        let count = Int(try cursor.readUInt8("the number of handles of Number Of Completed Packets"))
        guard cursor.remainingCount == count * 4 else {
            throw cursor.malformed(
                "\(count * 4) bytes for \(count) handle\(count == 1 ? "" : "s") of Number Of Completed Packets, found \(cursor.remainingCount)",
                at: cursor.position - 1)
        }
        var entries: [CompletedPackets] = []
        entries.reserveCapacity(count)
        for _ in 0 ..< count {
            let handle = try cursor.readConnectionHandle("a connection handle")
            entries.append(CompletedPackets(handle: handle, count: try cursor.readUInt16LittleEndian("a completed packet count")))
        }
        return entries
    }
}
