import Capture
import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport

/// Damaged capture files: the packets before the damage are analysed, and the damage is reported
/// as a `capture-file` problem that names the file, the byte offset and the packets read.
@Suite("Damaged capture files")
struct CaptureFileDamageTests {
    let exchange = HAPExchange()

    @Test("A file cut inside a record header keeps the packets before it and names the byte where reading stopped")
    func cutInsideRecordHeader() throws {
        let scratch = try ScratchDirectory()
        let whole = try CaptureFile.pcap(frames: exchange.frames)
        let path = try scratch.write(whole + CaptureFile.recordHeader(capturedLength: 60, originalLength: 60).prefix(9), to: "cut.pcap")

        let analysis = try Analysis(file: path)

        #expect(analysis.decoded(exchange))
        let damage = try #require(analysis.problems(.captureFile).first)
        // libpcap stops at the end of the file, having read 9 of the record header's 16 bytes.
        #expect(damage.message.contains("damaged at byte \(whole.count + 9)"))
        #expect(damage.message.contains("only got 9"))
        #expect(damage.message.contains("after \(exchange.frames.count) packets"))
        #expect(analysis.summary?.packets == exchange.frames.count)
    }

    @Test("A file cut inside a packet's bytes keeps the packets before it and reports the damage")
    func cutInsidePacketData() throws {
        let scratch = try ScratchDirectory()
        let whole = try CaptureFile.pcap(frames: exchange.frames)
        let cut = whole + CaptureFile.recordHeader(capturedLength: 200, originalLength: 200) + [UInt8](repeating: 0xAB, count: 50)
        let path = try scratch.write(cut, to: "cut.pcap")

        let analysis = try Analysis(file: path)

        #expect(analysis.decoded(exchange))
        let damage = try #require(analysis.problems(.captureFile).first)
        #expect(damage.message.contains("damaged"))
        #expect(damage.message.contains("after \(exchange.frames.count) packets"))
    }

    @Test("A record claiming a gigabyte of captured bytes is reported as damage, not allocated")
    func absurdCapturedLength() throws {
        let scratch = try ScratchDirectory()
        let whole = try CaptureFile.pcap(frames: exchange.frames)
        let path = try scratch.write(
            whole + CaptureFile.recordHeader(capturedLength: 1 << 30, originalLength: 1 << 30) + [UInt8](repeating: 0, count: 64),
            to: "huge.pcap")

        let analysis = try Analysis(file: path)

        #expect(analysis.decoded(exchange))
        let damage = try #require(analysis.problems(.captureFile).first)
        #expect(damage.message.contains("damaged at byte"))
    }

    @Test("A record whose original length is below its captured length is analysed as captured")
    func originalShorterThanCaptured() throws {
        let scratch = try ScratchDirectory()
        var bytes = try CaptureFile.pcap(frames: exchange.frames)
        // The first record's original length field: file header, then seconds, fraction, captured length.
        bytes.replaceSubrange(CaptureFile.fileHeaderLength + 12 ..< CaptureFile.fileHeaderLength + 16, with: [10, 0, 0, 0])
        let path = try scratch.write(bytes, to: "odd.pcap")

        let analysis = try Analysis(file: path)

        #expect(analysis.decoded(exchange))
        #expect(analysis.problems(.captureFile).isEmpty)
    }

    @Test("A file that is not a capture is refused with the reason, before any packet")
    func badMagic() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(Array("GIF89a, not a capture at all".utf8), to: "picture.pcap")

        let analysis = try Analysis(file: path)

        let problem = try #require(analysis.problems(.captureFile).first)
        #expect(problem.message.contains("picture.pcap"))
        #expect(problem.message.contains("no pcap or pcapng magic number"))
        #expect(analysis.summary?.packets == 0)
    }

    @Test("An empty file is refused as empty")
    func emptyFile() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write([], to: "empty.pcap")

        let analysis = try Analysis(file: path)

        #expect(analysis.problems(.captureFile).first?.message.contains("the file is empty") == true)
    }

    @Test("A file shorter than its own header is refused as damaged")
    func fileHeaderCut() throws {
        let scratch = try ScratchDirectory()
        let header = try CaptureFile.pcap(frames: []).prefix(13)
        let path = try scratch.write(Array(header), to: "header.pcap")

        let analysis = try Analysis(file: path)

        let problem = try #require(analysis.problems(.captureFile).first)
        #expect(problem.message.contains("header.pcap"))
        #expect(analysis.summary?.packets == 0)
    }

    @Test("A capture of a link type hapscope cannot decode is refused, naming the link type")
    func unsupportedLinkType() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(try CaptureFile.pcap(frames: exchange.frames, linkType: LinkType(rawValue: 147)), to: "user.pcap")

        let analysis = try Analysis(file: path)

        let problem = try #require(analysis.problems(.captureFile).first)
        #expect(problem.message.contains("link type 147 (user-defined) is not supported"))
    }

    @Test("A pcapng file that adds an interface of an unsupported link type is analysed up to it, and the rest is reported")
    func pcapngInterfaceOfUnsupportedLinkType() throws {
        let scratch = try ScratchDirectory()
        var file = PcapNG.sectionHeader() + PcapNG.interfaceDescription(linkType: 1)
        for (index, frame) in exchange.frames.enumerated() {
            file += PcapNG.enhancedPacket(interface: 0, microseconds: 1_700_000_000_000_000 + UInt64(index) * 1_000, frame)
        }
        file += PcapNG.interfaceDescription(linkType: 147)
        file += PcapNG.enhancedPacket(interface: 1, microseconds: 1_700_000_001_000_000, [UInt8](repeating: 0x5A, count: 40))
        let path = try scratch.write(file, to: "two-interfaces.pcapng")

        let analysis = try Analysis(file: path)

        #expect(analysis.decoded(exchange))
        // libpcap refuses a second link type in one section, as damage after the packets before it.
        let problems = analysis.problems(.captureFile)
        try #require(problems.count == 1)
        #expect(problems[0].message.contains("after \(exchange.frames.count) packets"))
        #expect(problems[0].message.contains("an interface has a type 147 different from the type of the first interface"))
    }

    @Test("A recorded pcapng capture cut in the middle of a block keeps the pairing decoded before the cut")
    func recordedPcapngCut() throws {
        let scratch = try ScratchDirectory()
        let recorded = try RecordedCapture.bytes("wrong-code.pcapng")
        let path = try scratch.write(Array(recorded.prefix(recorded.count * 2 / 3)), to: "cut.pcapng")

        let analysis = try Analysis(file: path, configuration: AnalysisConfiguration(keyLog: try RecordedCapture("wrong-code").keyLog()))

        #expect(analysis.pairingMessages.contains { $0.procedure == .pairSetup && $0.state == .m4 })
        let damage = try #require(analysis.problems(.captureFile).first)
        #expect(damage.message.contains("damaged"))
        #expect(analysis.summary.map { $0.packets > 0 } == true)
    }

    @Test("A damaged file among several is reported and the next file is analysed")
    func damagedFileAmongSeveral() throws {
        let scratch = try ScratchDirectory()
        let first = HAPExchange(controllerPort: 49_241), last = HAPExchange(controllerPort: 49_243)
        let damaged = try CaptureFile.pcap(frames: HAPExchange(controllerPort: 49_242).frames)
        let paths = [
            try scratch.write(try CaptureFile.pcap(frames: first.frames), to: "first.pcap"),
            try scratch.write(Array(damaged.prefix(damaged.count - 7)), to: "damaged.pcap"),
            try scratch.write(try CaptureFile.pcap(frames: last.frames), to: "last.pcap"),
        ]

        let analysis = try Analysis(files: paths)

        #expect(analysis.decoded(first))
        #expect(analysis.decoded(last))
        #expect(analysis.problems(.captureFile).count == 1)
        #expect(analysis.problems(.captureFile).first?.message.contains("damaged.pcap: damaged") == true)
    }

    @Test("A file that is not a capture among several is reported and the next file is analysed")
    func notACaptureAmongSeveral() throws {
        let scratch = try ScratchDirectory()
        let first = HAPExchange(controllerPort: 49_244), last = HAPExchange(controllerPort: 49_245)
        let paths = [
            try scratch.write(try CaptureFile.pcap(frames: first.frames), to: "first.pcap"),
            try scratch.write(Array("not a capture".utf8), to: "notes.txt"),
            try scratch.write(try CaptureFile.pcap(frames: last.frames), to: "last.pcap"),
        ]

        let analysis = try Analysis(files: paths)

        #expect(analysis.decoded(first))
        #expect(analysis.problems(.captureFile).first?.message.contains("notes.txt: not a pcap or pcapng capture file") == true)
        #expect(analysis.decoded(last))
    }
}
