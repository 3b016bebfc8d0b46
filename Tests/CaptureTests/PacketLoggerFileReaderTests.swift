@testable import Capture
import Packets
import Testing

@Suite("Reading PacketLogger files")
struct PacketLoggerFileReaderTests {
    static let records: [(type: UInt8, data: [UInt8])] = [
        (0x00, [0x03, 0x0C, 0x00]), // HCI command: Reset
        (0xFC, Array("a note".utf8)), // a note, skipped
        (0x01, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]), // HCI event
        (0x02, [0x40, 0x00, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x1E]), // ACL sent
        (0x03, [0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x1E]), // ACL received
    ]

    @Test("Both byte orders: HCI records become H4 frames with direction, other records are skipped", arguments: [true, false])
    func byteOrders(_ bigEndianFile: Bool) throws {
        let reader = try PacketLoggerFileReader(bytes: packetLogger(Self.records, bigEndianFile: bigEndianFile), name: "log.pklg")
        #expect(reader.isBigEndian == bigEndianFile)
        let (packets, error) = reader.readAll()
        #expect(error == nil)
        #expect(packets.map { Array($0.bytes.prefix(5)) } == [
            [0, 0, 0, 0, 0x01], [0, 0, 0, 1, 0x04], [0, 0, 0, 0, 0x02], [0, 0, 0, 1, 0x02],
        ])
        #expect(packets[0].bytes == [0, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00])
        // Numbers count every record, as Wireshark does, so the note leaves a gap.
        #expect(packets.map(\.number) == [1, 3, 4, 5])
        #expect(packets[0].seconds == 1_700_000_000 && packets[0].nanoseconds == 250_000_000)
        #expect(reader.skippedRecords == 1 && reader.packetsRead == 4)
    }

    @Test("A record cut short, a length below 8, microseconds of a second: damage at the record's offset")
    func damage() throws {
        let file = packetLogger(Self.records)
        let (packets, error) = try PacketLoggerFileReader(bytes: Array(file.dropLast(3)), name: "cut").readAll()
        #expect(packets.count == 3)
        guard case .damagedFile("cut", let offset, 3, _)? = error else {
            Issue.record("no damage reported: \(String(describing: error))")
            return
        }
        #expect(offset == file.count - 22)
        var short = file
        short[0 ..< 4] = [0, 0, 0, 7]
        #expect(try PacketLoggerFileReader(bytes: short, name: "s").readAll().error?.description.contains("at least 8") == true)
        var microseconds = file
        microseconds[8 ..< 12] = [0, 0x0F, 0x42, 0x40]
        #expect(try PacketLoggerFileReader(bytes: microseconds, name: "m").readAll().error?.description.contains("below 1000000") == true)
        #expect(try PacketLoggerFileReader(bytes: file, name: "l", maximumRecordLength: 4).readAll().error?.description.contains("at most 4") == true)
    }

    @Test("An empty file, or one shorter than a record header, is not a PacketLogger file")
    func notPacketLogger() {
        #expect(throws: CaptureError.notACaptureFile(file: "e", reason: "the file is empty")) { try PacketLoggerFileReader(bytes: [], name: "e") }
        #expect(throws: CaptureError.self) { try PacketLoggerFileReader(bytes: [0, 0, 0, 9, 1], name: "s") }
    }

    @Test("Every prefix fails cleanly or reads the whole records it holds")
    func dripFed() throws {
        let file = packetLogger(Self.records)
        for count in 0 ..< file.count {
            guard let reader = try? PacketLoggerFileReader(bytes: Array(file.prefix(count)), name: "p") else {
                #expect(count < 12)
                continue
            }
            _ = reader.readAll()
            #expect(try reader.next() == nil)
        }
    }
}
