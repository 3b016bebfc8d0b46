import WireParsing

/// What one frame of a Bluetooth link type holds: an HCI packet with its direction and type,
/// or a record of the Linux monitor that is not an HCI packet.
///
/// Reading the frame header leaves the cursor on the first byte after the H4 indicator (or
/// after the monitor header), so the packet itself is read without a copy. The decode path of
/// one frame, each layer with a cursor of its own layer and absolute offsets:
///
/// ```swift
/// var cursor = ByteCursor(frame, layer: .bluetoothLink)
/// guard case .packet(let direction, let indicator, _) = try HCIFrame(parsing: &cursor, linkType: .h4WithPseudoHeader) else { … }
/// var packet = ByteCursor(cursor.readRemaining(), layer: .hci, baseOffset: cursor.offset)  // offset taken first
/// switch indicator {
/// case .event: let event = try HCIEvent(parsing: &packet)
/// case .aclData:
///     let header = try ACLDataHeader(parsing: &packet)
///     let result = reassembler.add(header, direction: direction, fragment: packet.readRemaining(), offset: …)
///     // .inFragment: L2CAPBasicHeader, then ATTPDU / LESignalingCommand / SMPCommand on the fragment
///     // .joined(bytes): the same on the joined copy
/// …
/// }
/// ```
public enum HCIFrame: Hashable, Sendable {
    case packet(direction: HCIDirection, indicator: HCIPacketIndicator, adapterIndex: UInt16?)
    /// A Linux monitor record of its own kind (an index added, a note, a management command).
    case monitorRecord(adapterIndex: UInt16, opcode: LinuxMonitorOpcode)

    /// Reads the pseudo-header of `linkType` and, for H4 framing, the packet indicator.
    public init(parsing cursor: inout ByteCursor, linkType: BluetoothLinkType) throws(DecodeError) {
        switch linkType {
        case .h4WithPseudoHeader:
            let header = try H4PseudoHeader(parsing: &cursor)
            let indicator = HCIPacketIndicator(rawValue: try cursor.readUInt8("the H4 packet indicator"))
            self = .packet(direction: header.hciDirection, indicator: indicator, adapterIndex: nil)
        case .linuxMonitor:
            let header = try LinuxMonitorHeader(parsing: &cursor)
            if let (indicator, direction) = header.opcode.hciPacket {
                self = .packet(direction: direction, indicator: indicator, adapterIndex: header.adapterIndex)
            } else {
                self = .monitorRecord(adapterIndex: header.adapterIndex, opcode: header.opcode)
            }
        }
    }
}
