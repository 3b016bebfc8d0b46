@testable import Capture
import Testing
import TestSupport

@Suite("Telling capture formats apart")
struct CaptureFormatTests {
    @Test("pcap in both byte orders and both precisions, pcapng, btsnoop, PacketLogger in both byte orders")
    func magicNumbers() {
        #expect(CaptureFormat.detect(prefix: hexBytes("d4c3b2a102000400")) == .pcap)
        #expect(CaptureFormat.detect(prefix: hexBytes("a1b2c3d400020004")) == .pcap)
        #expect(CaptureFormat.detect(prefix: hexBytes("4d3cb2a102000400")) == .pcap)
        #expect(CaptureFormat.detect(prefix: hexBytes("0a0d0d0a1c000000")) == .pcapng)
        #expect(CaptureFormat.detect(prefix: bumbleBTSnoop) == .btsnoop)
        #expect(CaptureFormat.detect(prefix: packetLogger(PacketLoggerFileReaderTests.records)) == .packetLogger)
        #expect(CaptureFormat.detect(prefix: packetLogger(PacketLoggerFileReaderTests.records, bigEndianFile: false)) == .packetLogger)
    }

    @Test("Text, a short prefix and an implausible first record match nothing")
    func nothing() {
        #expect(CaptureFormat.detect(prefix: Array("GET / HTTP/1.1\r\n".utf8)) == nil)
        #expect(CaptureFormat.detect(prefix: [0x0A, 0x0D]) == nil)
        var badType = packetLogger(PacketLoggerFileReaderTests.records)
        badType[12] = 0x55
        #expect(CaptureFormat.detect(prefix: badType) == nil)
    }

    @Test("Detected from a file's first bytes")
    func fromFile() throws {
        let scratch = try ScratchDirectory()
        #expect(try CaptureFormat.detect(file: scratch.write(bumbleBTSnoop, to: "a")) == .btsnoop)
        #expect(try CaptureFormat.detect(file: scratch.write([], to: "b")) == nil)
    }
}
