import Packets

/// Reads Apple PacketLogger (`.pklg`) files as frames of LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR.
///
/// The format has no file header. Each record is a length (4), seconds (4) and microseconds
/// (4), then a type byte and the data; the length counts everything after itself. Files exist
/// in both byte orders; as Wireshark's reader does (`wiretap/packetlogger.c`), the first
/// length is read little-endian and taken as big-endian when its low 16 bits are zero and its
/// high 16 bits are not. Types 0x00 command, 0x01 event, 0x02/0x03 ACL sent/received and
/// 0x08/0x09 SCO sent/received carry HCI packets and are handed out with the H4 indicator
/// and direction put in front; the other records (notes, power, logging, LMP) are counted in
/// `skippedRecords` and skipped. Packet numbers count every record, as Wireshark numbers them.
///
/// A record that cannot be read (a length below 8 or above `maximumRecordLength`, a
/// microsecond field of a second or more, the file ending inside it) ends the file with
/// `CaptureError.damagedFile` at the record's offset.
public final class PacketLoggerFileReader {
    static let recordHeaderLength = 12

    /// PacketLogger record types (Wireshark `wiretap/packetlogger.c`, `PKT_*`).
    public enum RecordType {
        public static let hciCommand: UInt8 = 0x00
        public static let hciEvent: UInt8 = 0x01
        public static let aclSent: UInt8 = 0x02
        public static let aclReceived: UInt8 = 0x03
        public static let scoSent: UInt8 = 0x08
        public static let scoReceived: UInt8 = 0x09
        public static let lmpSent: UInt8 = 0x0A
        public static let lmpReceived: UInt8 = 0x0B
        public static let syslog: UInt8 = 0xF7
        public static let kernel: UInt8 = 0xF8
        public static let kernelDebug: UInt8 = 0xF9
        public static let error: UInt8 = 0xFA
        public static let power: UInt8 = 0xFB
        public static let note: UInt8 = 0xFC
        public static let config: UInt8 = 0xFD
        public static let newController: UInt8 = 0xFE

        static let known: Set<UInt8> = [
            hciCommand, hciEvent, aclSent, aclReceived, scoSent, scoReceived, lmpSent, lmpReceived, syslog, kernel, kernelDebug,
            error, power, note, config, newController,
        ]

        /// The H4 indicator and direction of a record type that carries an HCI packet.
        static func hciPacket(_ type: UInt8) -> (indicator: UInt8, direction: UInt32)? {
            switch type {
            case hciCommand: (0x01, H4Direction.sent)
            case hciEvent: (0x04, H4Direction.received)
            case aclSent: (0x02, H4Direction.sent)
            case aclReceived: (0x02, H4Direction.received)
            case scoSent: (0x03, H4Direction.sent)
            case scoReceived: (0x03, H4Direction.received)
            default: nil
            }
        }
    }

    public let isBigEndian: Bool
    public let linkType = LinkType.bluetoothHCIH4WithPseudoHeader
    public var file: String { records.name }
    public var maximumRecordLength: Int { records.maximumRecordLength }
    public var packetsRead: Int { records.packetsRead }
    /// Records read that carry no HCI packet.
    public private(set) var skippedRecords = 0

    private let records: BluetoothRecordFile
    private var nextNumber: Int
    /// The first record header, read to learn the byte order.
    private var peekedHeader: [UInt8]?

    public convenience init(file: String, maximumRecordLength: Int = 262_144, firstPacketNumber: Int = 1) throws(CaptureError) {
        try self.init(source: CaptureByteSource(file: file), maximumRecordLength: maximumRecordLength, firstPacketNumber: firstPacketNumber)
    }

    public convenience init(bytes: [UInt8], name: String, maximumRecordLength: Int = 262_144, firstPacketNumber: Int = 1) throws(CaptureError) {
        try self.init(source: CaptureByteSource(bytes: bytes, name: name), maximumRecordLength: maximumRecordLength, firstPacketNumber: firstPacketNumber)
    }

    init(source: CaptureByteSource, maximumRecordLength: Int, firstPacketNumber: Int) throws(CaptureError) {
        records = BluetoothRecordFile(source: source, maximumRecordLength: maximumRecordLength, recordHeaderLength: Self.recordHeaderLength)
        nextNumber = firstPacketNumber
        let file = source.name
        let header = Array(try records.read(upTo: Self.recordHeaderLength))
        guard !header.isEmpty else { throw .notACaptureFile(file: file, reason: "the file is empty") }
        guard header.count == Self.recordHeaderLength else {
            throw .notACaptureFile(file: file, reason: "shorter than one PacketLogger record header")
        }
        isBigEndian = Self.isBigEndian(firstLength: header)
        peekedHeader = header
    }

    /// Wireshark's rule: a little-endian length with zero low and non-zero high halves was
    /// written big-endian.
    static func isBigEndian(firstLength bytes: some Collection<UInt8>) -> Bool {
        let first = Array(bytes.prefix(4))
        let littleEndian = UInt32(first[0]) | UInt32(first[1]) << 8 | UInt32(first[2]) << 16 | UInt32(first[3]) << 24
        return littleEndian & 0xFFFF == 0 && littleEndian & 0xFFFF_0000 != 0
    }

    public func next() throws(CaptureError) -> CapturedPacket? {
        while !records.ended {
            let recordOffset = records.offset - (peekedHeader == nil ? 0 : Self.recordHeaderLength)
            let header: [UInt8]
            if let peeked = peekedHeader {
                header = peeked
                peekedHeader = nil
            } else {
                guard let read = try records.recordHeader(length: Self.recordHeaderLength, recordOffset: recordOffset) else { return nil }
                header = Array(read)
            }
            let length = Int(word(header, at: 0))
            let seconds = word(header, at: 4)
            let microseconds = word(header, at: 8)
            guard length >= 8 else { throw records.damaged(at: recordOffset, "a record length of at least 8, found \(length)") }
            let contentLength = length - 8
            try records.checkDataLength(contentLength, recordOffset: recordOffset)
            guard microseconds < 1_000_000 else {
                throw records.damaged(at: recordOffset, "a microsecond field below 1000000, found \(microseconds)")
            }
            // Type byte at offset 4, data after it: the pseudo-header and indicator then take
            // offsets 0–4, the indicator overwriting the type.
            try records.readData(count: contentLength, to: 4, recordOffset: recordOffset)
            let number = nextNumber
            nextNumber += 1
            guard contentLength > 0, let (indicator, direction) = RecordType.hciPacket(records[4]) else {
                skippedRecords += 1
                continue
            }
            records.writeBigEndian(direction, at: 0)
            records.write(indicator, at: 4)
            records.packetsRead += 1
            let captured = 4 + contentLength
            let timestamp = Timestamp(seconds: Int64(seconds), nanoseconds: microseconds * 1000)
            return CapturedPacket(
                info: PacketInfo(number: number, timestamp: timestamp, capturedLength: captured, originalLength: captured),
                bytes: records.bytes(count: captured), linkType: linkType, fileIndex: 0)
        }
        return nil
    }

    private func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        let value = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        return isBigEndian ? value.byteSwapped : value
    }
}
