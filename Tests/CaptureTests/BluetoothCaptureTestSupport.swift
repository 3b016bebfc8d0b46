import Capture
import Foundation
import Packets

/// The first three records of a btsnoop file (datalink 1002) Bumble 0.0.236's `BtSnooper` wrote
/// for a central: Reset sent, its Command Complete received, Read Local Supported Features sent.
let bumbleBTSnoop: [UInt8] = hexBytes(
    "6274736e6f6f700000000001000003ea"
        + "00000004000000040000000200000000" + "00e33f44b80614ed" + "01030c00"
        + "00000007000000070000000300000000" + "00e33f44b80615f6" + "040e0401030c00"
        + "00000004000000040000000200000000" + "00e33f44b8061628" + "01021000")

func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index ..< next], radix: 16)!)
        index = next
    }
    return bytes
}

/// A btsnoop file of `datalink` with records of (flags, data), timestamps a microsecond apart.
func btsnoop(datalink: UInt32, _ records: [(flags: UInt32, data: [UInt8])], originalExtra: Int = 0) -> [UInt8] {
    var bytes = Array("btsnoop".utf8) + [0] + bigEndian(UInt32(1)) + bigEndian(datalink)
    for (index, record) in records.enumerated() {
        bytes += bigEndian(UInt32(record.data.count + originalExtra)) + bigEndian(UInt32(record.data.count))
        bytes += bigEndian(record.flags) + bigEndian(UInt32(0))
        // 2000-01-01 00:00:00 UTC in microseconds since year 0, plus `index` µs.
        bytes += bigEndian(UInt64(0x00E0_3AB4_4A67_6000) + UInt64(index))
        bytes += record.data
    }
    return bytes
}

func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}

func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// A PacketLogger file of (type, data) records, in either byte order.
func packetLogger(_ records: [(type: UInt8, data: [UInt8])], bigEndianFile: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, record) in records.enumerated() {
        let words: [UInt32] = [UInt32(9 + record.data.count), 1_700_000_000 + UInt32(index), 250_000]
        for word in words { bytes += bigEndianFile ? bigEndian(word) : littleEndian(word) }
        bytes += [record.type] + record.data
    }
    return bytes
}

protocol BluetoothFileReading {
    func next() throws(CaptureError) -> CapturedPacket?
}

extension BTSnoopFileReader: BluetoothFileReading {}
extension PacketLoggerFileReader: BluetoothFileReading {}

extension BluetoothFileReading {
    func readAll() -> (packets: [ReadPacket], error: CaptureError?) {
        var packets: [ReadPacket] = []
        do {
            while let packet = try next() { packets.append(ReadPacket(packet)) }
            return (packets, nil)
        } catch {
            return (packets, error)
        }
    }
}
