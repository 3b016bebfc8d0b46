import WireParsing
@testable import Bluetooth

/// Bytes from hex written with spaces for readability.
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}

/// Decodes `bytes` with `parse` over a cursor of `layer`, returning the value or the error.
func decode<Value>(
    _ bytes: [UInt8], layer: DecodeError.Layer, _ parse: (inout ByteCursor) throws(DecodeError) -> Value
) -> Result<Value, DecodeError> {
    var cursor = ByteCursor(bytes.span.bytes, layer: layer)
    do {
        return .success(try parse(&cursor))
    } catch {
        return .failure(error)
    }
}

extension Result {
    var value: Success? { try? get() }
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Every proper prefix of `bytes`, for the drip-fed tests: each must fail cleanly.
func prefixes(of bytes: [UInt8]) -> [[UInt8]] {
    (0 ..< bytes.count).map { Array(bytes[..<$0]) }
}

/// HCI packets recorded from two Bumble 0.0.236 devices on one `LocalLink` (a central reading
/// and writing a HAP-typed characteristic of a peripheral), as its `PcapSnooper` wrote them
/// with LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: direction word, H4 indicator, packet.
enum BumbleVectors {
    /// Reset, from the host.
    static let resetCommand = hex("00000000 01 030c00")
    /// Command Complete for Reset.
    static let resetComplete = hex("00000001 04 0e04 01 030c 00")
    /// LE Connection Complete: handle 1, central, random peer F0:F1:F2:F3:F4:F6.
    static let leConnectionComplete = hex("00000001 04 3e13 01 00 0100 00 01 f6f4f3f2f1f0 0c00 0000 4800 00")
    /// ATT Read By Group Type Request (primary services) from the central.
    static let readByGroupTypeRequest = hex("00000000 02 0100 0b00 0700 0400 10 0100 ffff 0028")
    /// Number Of Completed Packets: one packet of handle 1.
    static let completedPackets = hex("00000001 04 1305 01 0100 0100")
    /// Read By Group Type Response: GAP (0x1800) 1–5 and GATT (0x1801) 6–13.
    static let readByGroupTypeResponse = hex("00000001 02 0120 1200 0e00 0400 11 06 0100 0500 0018 0600 0d00 0118")
    /// Read By Group Type Response: the HAP Accessory Information service (0x3E), 14–16.
    static let hapServiceResponse = hex("00000001 02 0120 1a00 1600 0400 11 14 0e00 1000 915276bb26000080001000003e000000")
    /// Error Response: Read By Group Type at 0x0011, Attribute Not Found.
    static let errorResponse = hex("00000001 02 0120 0900 0500 0400 01 10 1100 0a")
    /// Read By Type Response: two characteristic declarations.
    static let readByTypeResponse = hex("00000001 02 0120 1400 1000 0400 09 07 0200 02 0300 002a 0400 02 0500 012a")
    /// Read Request of handle 0x0010 and its response.
    static let readRequest = hex("00000000 02 0100 0700 0300 0400 0a 1000")
    static let readResponse = hex("00000001 02 0120 0900 0500 0400 0b 01020304")
    /// Write Request of handle 0x0010 and its response.
    static let writeRequest = hex("00000000 02 0100 0c00 0800 0400 12 1000 0012341000")
    static let writeResponse = hex("00000001 02 0120 0500 0100 0400 13")
    /// Disconnect handle 1, Remote User Terminated Connection; its Command Status; the event.
    static let disconnectCommand = hex("00000000 01 0604 03 0100 13")
    static let disconnectStatus = hex("00000001 04 0f04 00 01 0604")
    static let disconnectionComplete = hex("00000001 04 0504 00 0100 13")
    /// LE Extended Advertising Report of a scan (Bumble 0.0.236, legacy scanning): the
    /// peripheral's Flags, HomeKit manufacturer data and name, RSSI −50.
    static let extendedAdvertisingReport = hex(
        "00000001 04 3e3a 0d 01 0100 01 f6f4f3f2f1f0 01 01 00 00 ce 0000 00 000000000000 20"
            + "020106 16ff4c00063101a1a2a3a4a5a60a0001000102c0ffee00 05094c616d70")
}

/// A frame of link type 201 split into its H4 header and the cursor after the indicator.
func frame(_ bytes: [UInt8]) throws(DecodeError) -> (HCIFrame, Int) {
    var cursor = ByteCursor(bytes.span.bytes, layer: .bluetoothLink)
    let header = try HCIFrame(parsing: &cursor, linkType: .h4WithPseudoHeader)
    return (header, cursor.position)
}

/// The HCI packet of a link-type-201 frame: what follows the indicator.
func hciPacket(_ bytes: [UInt8]) -> [UInt8] {
    Array(bytes.dropFirst(5))
}

/// The L2CAP payload of an ACL frame of link type 201 (pseudo-header, indicator, ACL header,
/// L2CAP header skipped).
func l2capPayload(_ bytes: [UInt8]) -> [UInt8] {
    Array(bytes.dropFirst(5 + 4 + 4))
}
