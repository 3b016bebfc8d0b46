@testable import Capture
import Foundation
import Packets
import Testing
import TestSupport

@Suite("pcap writer")
struct PcapWriterTests {
    @Test("Packets written with nanosecond timestamps read back exactly")
    func nanosecondRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("nano.pcap")
        try writeCapture([TestFrames.mdnsQuery, TestFrames.tcpSyn], to: path)
        let (packets, error) = try CaptureFileReader(files: [path]).readAll()
        #expect(error == nil)
        #expect(packets.map(\.bytes) == [TestFrames.mdnsQuery, TestFrames.tcpSyn])
        #expect(packets.map(\.number) == [1, 2])
        #expect(packets.map(\.seconds) == [1_700_000_000, 1_700_000_001])
        #expect(packets.map(\.nanoseconds) == [123_456_789, 123_456_789])
        #expect(packets.allSatisfy { $0.linkType == .ethernet && $0.fileIndex == 0 })
    }

    @Test("The nanosecond file carries the nanosecond magic number; the microsecond file the classic one")
    func magicNumbers() throws {
        let scratch = try ScratchDirectory()
        try writeCapture([TestFrames.mdnsQuery], to: scratch.file("nano.pcap"))
        try writeCapture([TestFrames.mdnsQuery], to: scratch.file("micro.pcap"), precision: .microseconds)
        #expect(Array(try scratch.read("nano.pcap").prefix(4)) == [0x4D, 0x3C, 0xB2, 0xA1])
        #expect(Array(try scratch.read("micro.pcap").prefix(4)) == [0xD4, 0xC3, 0xB2, 0xA1])
    }

    @Test("Microsecond files keep whole microseconds, read back as nanoseconds")
    func microsecondPrecision() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("micro.pcap")
        try writeCapture([TestFrames.mdnsQuery], to: path, precision: .microseconds)
        let (packets, _) = try CaptureFileReader(files: [path]).readAll()
        #expect(packets.first?.nanoseconds == 123_456_000)
    }

    @Test("The snap length cuts long packets and keeps their original length")
    func snapLengthCuts() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("cut.pcap")
        try writeCapture([TestFrames.mdnsQuery], to: path, snapLength: 40)
        let packet = try #require(try CaptureFileReader(files: [path]).readAll().packets.first)
        #expect(packet.capturedLength == 40)
        #expect(packet.originalLength == TestFrames.mdnsQuery.count)
        #expect(packet.bytes == Array(TestFrames.mdnsQuery.prefix(40)))
    }

    @Test("An original length larger than the bytes is recorded; a smaller one is raised to them")
    func originalLength() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("lengths.pcap")
        let writer = try PcapWriter(file: path, linkType: .ethernet)
        TestFrames.tcpSyn.withUnsafeBytes {
            writer.write($0, timestamp: Timestamp(seconds: 1, nanoseconds: 0), originalLength: 1_514)
            writer.write($0, timestamp: Timestamp(seconds: 2, nanoseconds: 0), originalLength: 10)
        }
        try writer.close()
        let packets = try CaptureFileReader(files: [path]).readAll().packets
        #expect(packets.map(\.originalLength) == [1_514, TestFrames.tcpSyn.count])
    }

    @Test("Writing to - goes to standard output, which stays open")
    func standardOutput() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("stdout.pcap")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = try PcapWriter(file: "-", linkType: .ethernet, snapLength: 262_144, precision: .nanoseconds, standardOutput: descriptor)
        TestFrames.mdnsQuery.withUnsafeBytes { writer.write($0, timestamp: Timestamp(seconds: 5, nanoseconds: 6)) }
        try writer.close()
        #expect(fcntl(descriptor, F_GETFD) >= 0)
        let packets = try CaptureFileReader(files: [path]).readAll().packets
        #expect(packets.map(\.bytes) == [TestFrames.mdnsQuery])
    }

    @Test("A file that cannot be created is a write error naming it")
    func unwritablePath() throws {
        let path = "/nonexistent-directory/out.pcap"
        #expect(throws: CaptureError.writeFailed(file: path, reason: "No such file or directory")) {
            try PcapWriter(file: path, linkType: .ethernet)
        }
    }

    @Test("A snap length of zero is refused")
    func zeroSnapLength() throws {
        let scratch = try ScratchDirectory()
        #expect(throws: CaptureError.self) { try PcapWriter(file: scratch.file("x.pcap"), linkType: .ethernet, snapLength: 0) }
    }

    @Test("Writes after close are ignored")
    func writeAfterClose() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("closed.pcap")
        let writer = try PcapWriter(file: path, linkType: .ethernet)
        try writer.close()
        TestFrames.mdnsQuery.withUnsafeBytes { writer.write($0, timestamp: Timestamp(seconds: 1, nanoseconds: 0)) }
        #expect(try scratch.read("closed.pcap").count == 24)
    }
}
