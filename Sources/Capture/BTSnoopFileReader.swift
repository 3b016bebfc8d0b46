import Packets

/// Reads btsnoop files (the format of Android's HCI snoop log, BlueZ's `btmon -w` and Bumble's
/// snooper; Frontline's specification, BlueZ `src/shared/btsnoop.h`) as frames of a Bluetooth
/// link type.
///
/// The file header is 16 bytes: `btsnoop\0`, version 1 and the datalink (32-bit big-endian).
/// Each record is 24 bytes — original length, included length, flags, cumulative drops (32
/// bits each) and a 64-bit timestamp in microseconds since midnight, 1 January of year 0 —
/// then the included bytes. Datalinks:
/// - 1002 (HCI UART, H4): the data starts with the H4 indicator; flags bit 0 is the direction
///   (0 sent, 1 received). Handed out as LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201).
/// - 1001 (un-encapsulated HCI): no indicator; flags bit 1 tells a command or event (1) from
///   ACL data (0). The indicator is put back; link type 201.
/// - 2001 (Linux monitor): flags hold the adapter index (high 16 bits) and the monitor opcode
///   (low 16 bits). Handed out as LINKTYPE_BLUETOOTH_LINUX_MONITOR (254).
///
/// Packets are numbered from `firstPacketNumber`. A record that cannot be read (cut short, an
/// included length above the original or above `maximumRecordLength`) ends the file:
/// `next()` throws `CaptureError.damagedFile` with the record's byte offset after the good
/// records, and returns nil afterwards. Packet bytes live in the reader's buffer until the
/// next call.
public final class BTSnoopFileReader {
    public static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let headerLength = 16
    static let recordHeaderLength = 24
    /// Microseconds from year 0 to the Unix epoch, as BlueZ, Android and Wireshark use it.
    static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// The datalink types btsnoop defines.
    public enum Datalink: UInt32, Sendable {
        case unencapsulatedHCI = 1001
        case hciUART = 1002
        case hciBCSP = 1003
        case hciSerial = 1004
        case linuxMonitor = 2001
    }

    public let datalink: Datalink
    /// The link type of every packet handed out.
    public let linkType: LinkType
    public var file: String { records.name }
    public var maximumRecordLength: Int { records.maximumRecordLength }
    public var packetsRead: Int { records.packetsRead }

    private let records: BluetoothRecordFile
    private var nextNumber: Int

    /// Opens `file` (`-` for standard input) and reads its header.
    public convenience init(file: String, maximumRecordLength: Int = 262_144, firstPacketNumber: Int = 1) throws(CaptureError) {
        try self.init(source: CaptureByteSource(file: file), maximumRecordLength: maximumRecordLength, firstPacketNumber: firstPacketNumber)
    }

    /// Reads a file held in memory; `name` stands for it in errors.
    public convenience init(bytes: [UInt8], name: String, maximumRecordLength: Int = 262_144, firstPacketNumber: Int = 1) throws(CaptureError) {
        try self.init(source: CaptureByteSource(bytes: bytes, name: name), maximumRecordLength: maximumRecordLength, firstPacketNumber: firstPacketNumber)
    }

    init(source: CaptureByteSource, maximumRecordLength: Int, firstPacketNumber: Int) throws(CaptureError) {
        records = BluetoothRecordFile(source: source, maximumRecordLength: maximumRecordLength, recordHeaderLength: Self.recordHeaderLength)
        nextNumber = firstPacketNumber
        let file = source.name
        let header = try records.read(upTo: Self.headerLength)
        guard !header.isEmpty else { throw .notACaptureFile(file: file, reason: "the file is empty") }
        guard header.count == Self.headerLength, header.starts(with: Self.magic) else {
            throw .notACaptureFile(file: file, reason: "no btsnoop header")
        }
        let version = Self.bigEndian32(header, at: 8)
        guard version == 1 else { throw .notACaptureFile(file: file, reason: "btsnoop version \(version), only 1 is defined") }
        let type = Self.bigEndian32(header, at: 12)
        switch Datalink(rawValue: type) {
        case .hciUART?, .unencapsulatedHCI?:
            linkType = .bluetoothHCIH4WithPseudoHeader
        case .linuxMonitor?:
            linkType = .bluetoothLinuxMonitor
        default:
            throw .notACaptureFile(file: file, reason: "btsnoop datalink \(type) is not supported (1001, 1002 and 2001 are)")
        }
        datalink = Datalink(rawValue: type)!
    }

    /// The next packet, or nil after the last record.
    public func next() throws(CaptureError) -> CapturedPacket? {
        guard !records.ended else { return nil }
        let recordOffset = records.offset
        guard let header = try records.recordHeader(length: Self.recordHeaderLength, recordOffset: recordOffset) else { return nil }
        let originalLength = Int(Self.bigEndian32(header, at: 0))
        let includedLength = Int(Self.bigEndian32(header, at: 4))
        let flags = Self.bigEndian32(header, at: 8)
        let microseconds = UInt64(Self.bigEndian32(header, at: 16)) << 32 | UInt64(Self.bigEndian32(header, at: 20))
        guard includedLength <= originalLength else {
            throw records.damaged(at: recordOffset, "an included length of \(includedLength) above the original length of \(originalLength)")
        }
        try records.checkDataLength(includedLength, recordOffset: recordOffset)
        // The data goes behind the pseudo-header the frame needs.
        let prefix = datalink == .unencapsulatedHCI ? 5 : 4
        try records.readData(count: includedLength, to: prefix, recordOffset: recordOffset)
        switch datalink {
        case .linuxMonitor:
            records.writeBigEndian(UInt16(truncatingIfNeeded: flags >> 16), at: 0)
            records.writeBigEndian(UInt16(truncatingIfNeeded: flags), at: 2)
        case .unencapsulatedHCI:
            let received = flags & 1 == 1
            records.writeBigEndian(received ? H4Direction.received : H4Direction.sent, at: 0)
            // Bit 1: command (sent) or event (received); otherwise ACL data.
            records.write(flags & 2 != 0 ? (received ? 0x04 : 0x01) : 0x02, at: 4)
        default:
            records.writeBigEndian(flags & 1 == 1 ? H4Direction.received : H4Direction.sent, at: 0)
        }
        records.packetsRead += 1
        defer { nextNumber += 1 }
        let timestamp = Timestamp(unixMicroseconds: Int64(bitPattern: microseconds) &- Self.unixEpochOffset)
        let captured = prefix + includedLength
        return CapturedPacket(
            info: PacketInfo(number: nextNumber, timestamp: timestamp, capturedLength: captured, originalLength: prefix + originalLength),
            bytes: records.bytes(count: captured), linkType: linkType, fileIndex: 0)
    }

    static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
