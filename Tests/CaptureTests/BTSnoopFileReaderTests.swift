@testable import Capture
import Foundation
import Packets
import Testing
import TestSupport

@Suite("Reading btsnoop files")
struct BTSnoopFileReaderTests {
    @Test("A Bumble btsnoop file (H4): direction from bit 0, year-0 microseconds to Unix time")
    func bumbleFile() throws {
        let reader = try BTSnoopFileReader(bytes: bumbleBTSnoop, name: "bumble.btsnoop")
        #expect(reader.datalink == .hciUART && reader.linkType == .bluetoothHCIH4WithPseudoHeader)
        let (packets, error) = reader.readAll()
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [
            hexBytes("00000000" + "01030c00"), hexBytes("00000001" + "040e0401030c00"), hexBytes("00000000" + "01021000"),
        ])
        #expect(packets.map(\.number) == [1, 2, 3])
        // 2026-12-01 12:28:11.051245 UTC, when the recording ran.
        #expect(packets[0].seconds == 1_796_128_091 && packets[0].nanoseconds == 51_245_000)
        #expect(packets[0].capturedLength == 8 && packets[0].originalLength == 8)
    }

    @Test("Read from a file descriptor, numbered from a given first number")
    func fromFile() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(bumbleBTSnoop, to: "bumble.btsnoop")
        let reader = try BTSnoopFileReader(file: path, firstPacketNumber: 10)
        #expect(reader.readAll().packets.map(\.number) == [10, 11, 12])
        #expect(throws: CaptureError.fileNotFound(file: scratch.file("missing"))) { try BTSnoopFileReader(file: scratch.file("missing")) }
        #expect(throws: CaptureError.unreadableFile(file: scratch.path, reason: "it is a directory")) { try BTSnoopFileReader(file: scratch.path) }
    }

    @Test("Un-encapsulated HCI (1001): the indicator comes back from the flags")
    func unencapsulated() throws {
        let bytes = btsnoop(datalink: 1001, [
            (0b10, [0x03, 0x0C, 0x00]), (0b11, [0x0E, 0x01, 0x01]), (0b00, [0x01, 0x00, 0x00, 0x00]), (0b01, [0x01, 0x20, 0x00, 0x00]),
        ])
        let packets = try BTSnoopFileReader(bytes: bytes, name: "h1").readAll().packets
        #expect(packets.map { Array($0.bytes.prefix(5)) } == [
            [0, 0, 0, 0, 0x01], [0, 0, 0, 1, 0x04], [0, 0, 0, 0, 0x02], [0, 0, 0, 1, 0x02],
        ])
        #expect(packets[0].seconds == 946_684_800 && packets[1].nanoseconds == 1000)
        #expect(packets[0].capturedLength == 8 && packets[0].linkType == .bluetoothHCIH4WithPseudoHeader)
    }

    @Test("Linux monitor (2001): adapter index and opcode from the flags, link type 254")
    func linuxMonitor() throws {
        let reader = try BTSnoopFileReader(bytes: btsnoop(datalink: 2001, [(0x0001_0003, [0x0E, 0x01, 0x01])]), name: "btmon")
        let packets = reader.readAll().packets
        #expect(reader.linkType == .bluetoothLinuxMonitor)
        #expect(packets.map(\.bytes) == [[0x00, 0x01, 0x00, 0x03, 0x0E, 0x01, 0x01]])
    }

    @Test("A record cut short ends the file after the good records, naming the record's offset")
    func damagedRecord() throws {
        let cut = Array(bumbleBTSnoop.dropLast(2))
        let (packets, error) = try BTSnoopFileReader(bytes: cut, name: "cut").readAll()
        #expect(packets.count == 2)
        #expect(error == .damagedFile(file: "cut", offset: 16 + 28 + 31, packetsRead: 2,
                                      reason: "the file ends inside the 4 bytes of a record (2 present)"))
        let headerCut = Array(bumbleBTSnoop.prefix(16 + 10))
        guard case .damagedFile(_, let offset, 0, _)? = try BTSnoopFileReader(bytes: headerCut, name: "x").readAll().error else {
            Issue.record("a cut record header was not reported")
            return
        }
        #expect(offset == 16)
    }

    @Test("An included length above the original or above the bound is damage")
    func recordLengths() throws {
        var swapped = btsnoop(datalink: 1002, [(0, [0x01, 0x03, 0x0C, 0x00])])
        swapped[16 ..< 20] = [0, 0, 0, 1]
        #expect(try BTSnoopFileReader(bytes: swapped, name: "x").readAll().error?.description.contains("above the original length") == true)
        let large = btsnoop(datalink: 1002, [(0, [UInt8](repeating: 2, count: 100))])
        #expect(try BTSnoopFileReader(bytes: large, name: "x", maximumRecordLength: 64).readAll().error?.description.contains("at most 64 bytes") == true)
        // Once damaged, the reader stays at the end.
        let reader = try BTSnoopFileReader(bytes: large, name: "x", maximumRecordLength: 64)
        _ = reader.readAll()
        #expect(try reader.next() == nil)
    }

    @Test("Not btsnoop: empty, another magic, another version, an unsupported datalink")
    func notBTSnoop() {
        #expect(throws: CaptureError.notACaptureFile(file: "e", reason: "the file is empty")) { try BTSnoopFileReader(bytes: [], name: "e") }
        #expect(throws: CaptureError.notACaptureFile(file: "p", reason: "no btsnoop header")) {
            try BTSnoopFileReader(bytes: hexBytes("d4c3b2a102000400000000000000000000000400c9000000"), name: "p")
        }
        var version2 = bumbleBTSnoop
        version2[11] = 2
        #expect(throws: CaptureError.notACaptureFile(file: "v", reason: "btsnoop version 2, only 1 is defined")) {
            try BTSnoopFileReader(bytes: version2, name: "v")
        }
        #expect(throws: CaptureError.notACaptureFile(file: "b", reason: "btsnoop datalink 1003 is not supported (1001, 1002 and 2001 are)")) {
            try BTSnoopFileReader(bytes: btsnoop(datalink: 1003, []), name: "b")
        }
    }

    @Test("Every prefix of a file either fails cleanly or reads the records it holds whole")
    func dripFed() {
        for count in 0 ..< bumbleBTSnoop.count {
            let prefix = Array(bumbleBTSnoop.prefix(count))
            guard let reader = try? BTSnoopFileReader(bytes: prefix, name: "p") else {
                #expect(count < 16)
                continue
            }
            let (packets, error) = reader.readAll()
            let wholeRecords = [16, 16 + 28, 16 + 28 + 31, 16 + 28 + 31 + 28].filter { $0 <= count }.count - 1
            #expect(packets.count == wholeRecords)
            #expect((error == nil) == [16, 44, 75, 103].contains(count))
        }
    }
}
