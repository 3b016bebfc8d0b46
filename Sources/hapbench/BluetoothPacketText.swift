/// The Bluetooth packets of the generated HAP-BLE capture, as LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR
/// (201) frames: a 4-byte big-endian direction (0 sent by the host, 1 received; libpcap
/// `pcap-bt-linux.c`), the H4 packet indicator, then the HCI packet. Multi-byte fields are
/// little-endian, as HCI, L2CAP and ATT send them (Core Vol 4 Part E §5.4; Vol 3 Part A §3;
/// Vol 3 Part F §3.3).
enum BluetoothPacketText {
    enum Direction: UInt32 {
        case hostToController = 0
        case controllerToHost = 1
    }

    // Core Vol 4 Part A §2: the H4 packet indicators.
    private static let commandIndicator: UInt8 = 0x01
    private static let aclIndicator: UInt8 = 0x02
    private static let eventIndicator: UInt8 = 0x04
    /// Core Vol 3 Part A §2.1: the fixed channel of ATT on LE.
    private static let attributeChannel: UInt16 = 0x0004

    // MARK: HCI

    /// Core Vol 4 Part E §7.8.4 LE Set Random Address: how the capture names the host's address.
    static func leSetRandomAddress(_ address: [UInt8]) -> [UInt8] {
        command(group: 0x08, command: 0x0005, parameters: address)
    }

    /// Core Vol 4 Part E §7.7.65.1 LE Connection Complete (legacy), the host the central:
    /// status, handle, role, peer address type (1 random), peer address, interval (30 ms),
    /// latency, supervision timeout (4 s), clock accuracy.
    static func leConnectionComplete(handle: UInt16, peer: [UInt8]) -> [UInt8] {
        event(code: 0x3E, parameters: [0x01, 0x00] + le16(handle) + [0x00, 0x01] + peer + le16(24) + le16(0) + le16(400) + [0x00])
    }

    /// Core Vol 4 Part E §7.7.5 Disconnection Complete, reason 0x16 (terminated by the local host).
    static func disconnectionComplete(handle: UInt16) -> [UInt8] {
        event(code: 0x05, parameters: [0x00] + le16(handle) + [0x16])
    }

    private static func command(group: UInt16, command: UInt16, parameters: [UInt8]) -> [UInt8] {
        frame(.hostToController, commandIndicator, le16(group << 10 | command) + [UInt8(parameters.count)] + parameters)
    }

    private static func event(code: UInt8, parameters: [UInt8]) -> [UInt8] {
        frame(.controllerToHost, eventIndicator, [code, UInt8(parameters.count)] + parameters)
    }

    /// One ATT PDU in one L2CAP frame in one ACL packet: packet boundary 0b00 (first,
    /// non-flushable) from the host, 0b10 (first, flushable) from the controller, as LE sends them.
    static func att(_ pdu: [UInt8], handle: UInt16, _ direction: Direction) -> [UInt8] {
        let boundary: UInt16 = direction == .hostToController ? 0b00 : 0b10
        let l2cap = le16(UInt16(pdu.count)) + le16(attributeChannel) + pdu
        return frame(direction, aclIndicator, le16(handle | boundary << 12) + le16(UInt16(l2cap.count)) + l2cap)
    }

    private static func frame(_ direction: Direction, _ indicator: UInt8, _ packet: [UInt8]) -> [UInt8] {
        let value = direction.rawValue
        return [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF), indicator] + packet
    }

    // MARK: ATT (Core Vol 3 Part F §3.4)

    /// Core Vol 3 Part F §3.4.1.1; 0x0A Attribute Not Found ends a discovery.
    static func errorResponse(request: UInt8, handle: UInt16, error: UInt8 = 0x0A) -> [UInt8] { [0x01, request] + le16(handle) + [error] }
    static func exchangeMTURequest(_ mtu: UInt16) -> [UInt8] { [0x02] + le16(mtu) }
    static func exchangeMTUResponse(_ mtu: UInt16) -> [UInt8] { [0x03] + le16(mtu) }
    static func findInformationRequest(_ start: UInt16, _ end: UInt16) -> [UInt8] { [0x04] + le16(start) + le16(end) }
    /// Format 1: 16-bit UUIDs, 2: 128-bit; one format per response.
    static func findInformationResponse(_ entries: [(handle: UInt16, uuid: [UInt8])]) -> [UInt8] {
        [0x05, entries.first?.uuid.count == 2 ? 0x01 : 0x02] + entries.flatMap { le16($0.handle) + $0.uuid }
    }
    static func readByTypeRequest(_ start: UInt16, _ end: UInt16, type: UInt16) -> [UInt8] { [0x08] + le16(start) + le16(end) + le16(type) }
    static func readByTypeResponse(_ entries: [(handle: UInt16, value: [UInt8])]) -> [UInt8] {
        [0x09, UInt8(2 + (entries.first?.value.count ?? 0))] + entries.flatMap { le16($0.handle) + $0.value }
    }
    static func readRequest(_ handle: UInt16) -> [UInt8] { [0x0A] + le16(handle) }
    static func readResponse(_ value: [UInt8]) -> [UInt8] { [0x0B] + value }
    static func readBlobRequest(_ handle: UInt16, offset: Int) -> [UInt8] { [0x0C] + le16(handle) + le16(UInt16(offset)) }
    static func readBlobResponse(_ part: [UInt8]) -> [UInt8] { [0x0D] + part }
    static func readByGroupTypeRequest(_ start: UInt16, _ end: UInt16, type: UInt16) -> [UInt8] { [0x10] + le16(start) + le16(end) + le16(type) }
    static func readByGroupTypeResponse(_ entries: [(handle: UInt16, end: UInt16, value: [UInt8])]) -> [UInt8] {
        [0x11, UInt8(4 + (entries.first?.value.count ?? 0))] + entries.flatMap { le16($0.handle) + le16($0.end) + $0.value }
    }
    static func writeRequest(_ handle: UInt16, _ value: [UInt8]) -> [UInt8] { [0x12] + le16(handle) + value }
    static let writeResponse: [UInt8] = [0x13]
    static func prepareWriteRequest(_ handle: UInt16, offset: Int, _ part: [UInt8]) -> [UInt8] { [0x16] + le16(handle) + le16(UInt16(offset)) + part }
    static func prepareWriteResponse(_ handle: UInt16, offset: Int, _ part: [UInt8]) -> [UInt8] { [0x17] + le16(handle) + le16(UInt16(offset)) + part }
    /// Flags 0x01: write every prepared value.
    static let executeWriteRequest: [UInt8] = [0x18, 0x01]
    static let executeWriteResponse: [UInt8] = [0x19]
    static func handleValueIndication(_ handle: UInt16, _ value: [UInt8] = []) -> [UInt8] { [0x1D] + le16(handle) + value }
    static let handleValueConfirmation: [UInt8] = [0x1E]

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)] }
}
