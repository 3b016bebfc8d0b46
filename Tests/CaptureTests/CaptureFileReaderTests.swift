@testable import Capture
import Foundation
import Packets
import Testing
import TestSupport

@Suite("Reading capture files")
struct CaptureFileReaderTests {
    @Test("Several files read as one sequence, numbered across files, each packet knowing its file")
    func severalFiles() throws {
        let scratch = try ScratchDirectory()
        let first = scratch.file("first.pcap"), second = scratch.file("second.pcap")
        try writeCapture([TestFrames.numbered(1), TestFrames.numbered(2)], to: first)
        try writeCapture([TestFrames.numbered(3)], to: second, firstSecond: 1_800_000_000)
        let reader = try CaptureFileReader(files: [first, second])
        let (packets, error) = reader.readAll()
        #expect(error == nil)
        #expect(packets.map(\.number) == [1, 2, 3])
        #expect(packets.map(\.fileIndex) == [0, 0, 1])
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1), TestFrames.numbered(2), TestFrames.numbered(3)])
        #expect(packets.last?.seconds == 1_800_000_000)
        #expect(reader.packetsRead == 3)
        let progress = reader.progress
        #expect(progress.totalBytes == (try scratch.read("first.pcap").count + scratch.read("second.pcap").count))
        #expect(progress.bytesRead == progress.totalBytes)
        #expect(progress.fractionCompleted == 1)
    }

    @Test("Progress counts the bytes consumed within the file being read")
    func progressWithinFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("progress.pcap")
        try writeCapture((1 ... 3).map(TestFrames.numbered), to: path)
        let reader = try CaptureFileReader(files: [path])
        _ = try reader.next()
        let progress = reader.progress
        #expect(progress.totalBytes == 24 + 3 * (16 + TestFrames.mdnsQuery.count))
        #expect(progress.bytesRead == 24 + 16 + TestFrames.mdnsQuery.count)
    }

    @Test("pcapng files with nanosecond interface resolution keep nanoseconds")
    func pcapngNanoseconds() throws {
        let scratch = try ScratchDirectory()
        let time: UInt64 = 1_700_000_000_987_654_321
        let path = try scratch.write(
            PcapNG.sectionHeader() + PcapNG.interfaceDescription()
                + PcapNG.enhancedPacket(TestFrames.mdnsQuery, timestamp: time)
                + PcapNG.enhancedPacket(TestFrames.tcpSyn, timestamp: time + 1, originalLength: 1_000),
            to: "nano.pcapng")
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [TestFrames.mdnsQuery, TestFrames.tcpSyn])
        #expect(packets.map(\.seconds) == [1_700_000_000, 1_700_000_000])
        #expect(packets.map(\.nanoseconds) == [987_654_321, 987_654_322])
        #expect(packets.map(\.originalLength) == [TestFrames.mdnsQuery.count, 1_000])
    }

    @Test("pcapng files without a resolution option count microseconds")
    func pcapngMicroseconds() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(
            PcapNG.sectionHeader() + PcapNG.interfaceDescription(timestampResolution: nil)
                + PcapNG.enhancedPacket(TestFrames.mdnsQuery, timestamp: 1_700_000_000_250_000),
            to: "micro.pcapng")
        let packet = try #require(try CaptureFileReader(files: [path]).readAll().packets.first)
        #expect(packet.seconds == 1_700_000_000)
        #expect(packet.nanoseconds == 250_000_000)
    }

    @Test("pcap and pcapng files mix in one sequence")
    func mixedFormats() throws {
        let scratch = try ScratchDirectory()
        let classic = scratch.file("a.pcap")
        try writeCapture([TestFrames.numbered(1)], to: classic)
        let next = try scratch.write(
            PcapNG.sectionHeader() + PcapNG.interfaceDescription() + PcapNG.enhancedPacket(TestFrames.numbered(2), timestamp: 5),
            to: "b.pcapng")
        let packets = try CaptureFileReader(files: [classic, next]).readAll().packets
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1), TestFrames.numbered(2)])
        #expect(packets.map(\.number) == [1, 2])
    }

    @Test("- reads standard input, whose progress has no total")
    func standardInput() throws {
        let scratch = try ScratchDirectory()
        try writeCapture([TestFrames.numbered(1), TestFrames.numbered(2)], to: scratch.file("in.pcap"))
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(try scratch.read("in.pcap")))
        try pipe.fileHandleForWriting.close()
        let reader = try CaptureFileReader(
            files: ["-"], filter: nil, requiresDecodableLinkType: true, standardInput: pipe.fileHandleForReading.fileDescriptor)
        let (packets, error) = reader.readAll()
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1), TestFrames.numbered(2)])
        #expect(reader.progress.totalBytes == nil)
    }

    @Test("Empty standard input is not a capture")
    func emptyStandardInput() throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.close()
        #expect(throws: CaptureError.notACaptureFile(file: "-", reason: "the input is empty")) {
            try CaptureFileReader(files: ["-"], filter: nil, requiresDecodableLinkType: true, standardInput: pipe.fileHandleForReading.fileDescriptor)
        }
    }

    @Test("Standard input may be named only once")
    func standardInputTwice() {
        #expect(throws: CaptureError.unreadableFile(file: "-", reason: "standard input can be read only once")) {
            try CaptureFileReader(files: ["-", "-"])
        }
    }

    @Test("A file cut inside a packet delivers the packets before it, then names the file, offset and count")
    func truncatedFile() throws {
        let scratch = try ScratchDirectory()
        try writeCapture((1 ... 3).map(TestFrames.numbered), to: scratch.file("whole.pcap"))
        let whole = try scratch.read("whole.pcap")
        let path = try scratch.write(Array(whole.dropLast(20)), to: "cut.pcap")
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1), TestFrames.numbered(2)])
        guard case .damagedFile(let file, let offset, let packetsRead, let reason) = error else {
            Issue.record("expected a damaged-file error, got \(String(describing: error))")
            return
        }
        #expect(file == path)
        #expect(offset == whole.count - 20)
        #expect(packetsRead == 2)
        #expect(reason.contains("truncated"))
        #expect(error?.description.contains("damaged at byte \(whole.count - 20) after 2 packets") == true)
    }

    @Test("A file cut inside a record header is damaged after the whole packets")
    func truncatedRecordHeader() throws {
        let scratch = try ScratchDirectory()
        try writeCapture([TestFrames.numbered(1)], to: scratch.file("whole.pcap"))
        let path = try scratch.write(try scratch.read("whole.pcap") + [0x01, 0x02, 0x03, 0x04, 0x05], to: "cut.pcap")
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(packets.count == 1)
        guard case .damagedFile(_, _, let packetsRead, _) = error else {
            Issue.record("expected a damaged-file error, got \(String(describing: error))")
            return
        }
        #expect(packetsRead == 1)
    }

    @Test("A record claiming an impossible length is a damaged file")
    func corruptRecordLength() throws {
        let scratch = try ScratchDirectory()
        try writeCapture([TestFrames.numbered(1), TestFrames.numbered(2)], to: scratch.file("whole.pcap"))
        var bytes = try scratch.read("whole.pcap")
        let secondRecord = 24 + 16 + TestFrames.mdnsQuery.count
        bytes.replaceSubrange(secondRecord + 8 ..< secondRecord + 12, with: [0xFF, 0xFF, 0xFF, 0x7F])  // caplen
        let path = try scratch.write(bytes, to: "corrupt.pcap")
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(packets.count == 1)
        guard case .damagedFile(_, let offset, 1, _) = error else {
            Issue.record("expected a damaged-file error after 1 packet, got \(String(describing: error))")
            return
        }
        #expect(offset == secondRecord + 16)
    }

    @Test("A damaged pcapng file delivers the packets before the damage")
    func truncatedPcapng() throws {
        let scratch = try ScratchDirectory()
        let bytes = PcapNG.sectionHeader() + PcapNG.interfaceDescription()
            + PcapNG.enhancedPacket(TestFrames.numbered(1), timestamp: 1) + PcapNG.enhancedPacket(TestFrames.numbered(2), timestamp: 2)
        let path = try scratch.write(Array(bytes.dropLast(7)), to: "cut.pcapng")
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1)])
        guard case .damagedFile(_, _, 1, _) = error else {
            Issue.record("expected a damaged-file error after 1 packet, got \(String(describing: error))")
            return
        }
    }

    @Test("After a damaged file, reading goes on with the next file and its numbering")
    func continuesAfterDamage() throws {
        let scratch = try ScratchDirectory()
        try writeCapture([TestFrames.numbered(1), TestFrames.numbered(2)], to: scratch.file("whole.pcap"))
        let cut = try scratch.write(Array(try scratch.read("whole.pcap").dropLast(3)), to: "cut.pcap")
        let good = scratch.file("good.pcap")
        try writeCapture([TestFrames.numbered(3)], to: good)
        let reader = try CaptureFileReader(files: [cut, good])
        let first = reader.readAll()
        #expect(first.packets.map(\.number) == [1])
        #expect(first.error != nil)
        let rest = reader.readAll()
        #expect(rest.error == nil)
        #expect(rest.packets.map(\.number) == [2])
        #expect(rest.packets.map(\.fileIndex) == [1])
    }

    @Test("A file that is not a capture is named in the error")
    func badMagic() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(Array("GET /accessories HTTP/1.1\r\n\r\n".utf8), to: "notes.txt")
        #expect(throws: CaptureError.notACaptureFile(file: path, reason: "no pcap or pcapng magic number")) {
            try CaptureFileReader(files: [path])
        }
        let message = CaptureError.notACaptureFile(file: path, reason: "no pcap or pcapng magic number").description
        #expect(message.hasPrefix(path))
    }

    @Test("An empty file is not a capture")
    func emptyFile() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write([], to: "empty.pcap")
        #expect(throws: CaptureError.notACaptureFile(file: path, reason: "the file is empty")) {
            try CaptureFileReader(files: [path])
        }
    }

    @Test("A file cut inside its file header is damaged at the start")
    func truncatedFileHeader() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write([0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00], to: "stub.pcap")
        do {
            _ = try CaptureFileReader(files: [path])
            Issue.record("a 6-byte file opened")
        } catch {
            guard case .damagedFile(path, _, 0, let reason) = error else {
                Issue.record("expected a damaged-file error, got \(error)")
                return
            }
            #expect(reason.contains("truncated"))
        }
    }

    @Test("A missing file is reported before anything is read, even when it is not the first")
    func missingFile() throws {
        let scratch = try ScratchDirectory()
        let present = scratch.file("present.pcap")
        try writeCapture([TestFrames.mdnsQuery], to: present)
        let missing = scratch.file("missing.pcap")
        #expect(throws: CaptureError.fileNotFound(file: missing)) { try CaptureFileReader(files: [present, missing]) }
    }

    @Test("A directory is not readable as a capture")
    func directory() throws {
        let scratch = try ScratchDirectory()
        #expect(throws: CaptureError.unreadableFile(file: scratch.path, reason: "it is a directory")) {
            try CaptureFileReader(files: [scratch.path])
        }
    }

    @Test("A link type the decoder cannot read is refused once, naming the file and the type")
    func unsupportedLinkType() throws {
        let scratch = try ScratchDirectory()
        let wifi = scratch.file("wifi.pcap")
        try writeCapture([[0x08, 0x02] + [UInt8](repeating: 0, count: 30)], to: wifi, linkType: LinkType(rawValue: 105))
        #expect(throws: CaptureError.unsupportedLinkType(file: wifi, linkType: LinkType(rawValue: 105))) {
            try CaptureFileReader(files: [wifi])
        }
        #expect(CaptureError.unsupportedLinkType(file: wifi, linkType: LinkType(rawValue: 105)).description
            == "\(wifi): link type 105 (IEEE 802.11) is not supported")
        let permissive = try CaptureFileReader(files: [wifi], requiresDecodableLinkType: false)
        let packets = permissive.readAll().packets
        #expect(packets.map(\.linkType) == [LinkType(rawValue: 105)])
    }

    @Test("An unsupported file among others ends its turn with one error, and reading goes on")
    func unsupportedLinkTypeAmongOthers() throws {
        let scratch = try ScratchDirectory()
        let good = scratch.file("good.pcap"), wifi = scratch.file("wifi.pcap"), more = scratch.file("more.pcap")
        try writeCapture([TestFrames.numbered(1)], to: good)
        try writeCapture((1 ... 5).map { _ in [UInt8](repeating: 0, count: 24) }, to: wifi, linkType: LinkType(rawValue: 105))
        try writeCapture([TestFrames.numbered(2)], to: more)
        let reader = try CaptureFileReader(files: [good, wifi, more])
        let first = reader.readAll()
        #expect(first.packets.count == 1)
        #expect(first.error == .unsupportedLinkType(file: wifi, linkType: LinkType(rawValue: 105)))
        let rest = reader.readAll()
        #expect(rest.error == nil)
        #expect(rest.packets.map(\.fileIndex) == [2])
    }

    @Test("A filter drops packets before numbering: numbers count the packets that passed")
    func filterNumbering() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("mixed.pcap")
        try writeCapture([TestFrames.tcpSyn, TestFrames.numbered(1), TestFrames.tcpSyn, TestFrames.numbered(2)], to: path)
        let packets = try CaptureFileReader(files: [path], filter: "udp port 5353").readAll().packets
        #expect(packets.map(\.bytes) == [TestFrames.numbered(1), TestFrames.numbered(2)])
        #expect(packets.map(\.number) == [1, 2])
    }

    @Test("A filter libpcap cannot compile is an error with libpcap's words")
    func invalidFilter() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("any.pcap")
        try writeCapture([TestFrames.mdnsQuery], to: path)
        do {
            _ = try CaptureFileReader(files: [path], filter: "tcp port")
            Issue.record("the filter compiled")
        } catch {
            guard case .invalidFilter(let expression, let reason) = error else {
                Issue.record("expected an invalid-filter error, got \(error)")
                return
            }
            #expect(expression == "tcp port")
            #expect(reason.contains("syntax error"))
        }
    }

    @Test("An empty file list reads nothing")
    func noFiles() throws {
        let reader = try CaptureFileReader(files: [])
        #expect(try reader.next() == nil)
    }
}

@Suite("pcap timestamps")
struct TimestampConversionTests {
    @Test("A fraction of a second or more in a damaged record carries into the seconds")
    func carry() {
        #expect(Timestamp(pcapSeconds: 10, fraction: 2_500_000_000, isNanoseconds: true) == Timestamp(seconds: 12, nanoseconds: 500_000_000))
        #expect(Timestamp(pcapSeconds: 10, fraction: 1_000_001, isNanoseconds: false) == Timestamp(seconds: 11, nanoseconds: 1_000))
        #expect(Timestamp(pcapSeconds: 10, fraction: -1, isNanoseconds: true) == Timestamp(seconds: 9, nanoseconds: 999_999_999))
        #expect(Timestamp(pcapSeconds: Int.max, fraction: 1_000_000_000, isNanoseconds: true).seconds == .max)
    }
}
