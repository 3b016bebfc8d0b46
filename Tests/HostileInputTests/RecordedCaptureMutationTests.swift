import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The recorded captures in captures/, damaged: cut at every kind of place, their packets
/// corrupted, their bytes flipped at random. The analysis always runs to its end, and what the
/// damage did not touch is still decoded.
@Suite("Damaged recordings")
struct RecordedCaptureMutationTests {
    /// The records of a classic pcap file: where each starts, and its captured bytes.
    struct PcapRecord {
        let headerOffset: Int
        var dataRange: Range<Int> { headerOffset + 16 ..< headerOffset + 16 + capturedLength }
        let capturedLength: Int
    }

    static func records(of file: [UInt8]) -> [PcapRecord] {
        var records: [PcapRecord] = []
        var offset = CaptureFile.fileHeaderLength
        while offset + 16 <= file.count {
            let length = (0 ..< 4).reduce(0) { $0 | Int(file[offset + 8 + $1]) << (8 * $1) }
            guard offset + 16 + length <= file.count else { break }
            records.append(PcapRecord(headerOffset: offset, capturedLength: length))
            offset += 16 + length
        }
        return records
    }

    /// TCP ports of an Ethernet/IPv4 frame with a 20-byte IP header, as the recordings have.
    static func ports(_ file: [UInt8], _ record: PcapRecord) -> (source: UInt16, destination: UInt16)? {
        let data = record.dataRange
        guard record.capturedLength >= 54, file[data.lowerBound + 12] == 0x08, file[data.lowerBound + 13] == 0x00,
              file[data.lowerBound + 14] == 0x45, file[data.lowerBound + 23] == 6 else { return nil }
        let tcp = data.lowerBound + 34
        return (UInt16(file[tcp]) << 8 | UInt16(file[tcp + 1]), UInt16(file[tcp + 2]) << 8 | UInt16(file[tcp + 3]))
    }

    @Test("The bridge capture cut at any byte is analysed up to the cut, and the analysis ends")
    func cutAnywhere() throws {
        let scratch = try ScratchDirectory()
        let bridge = try RecordedCapture.bytes("bridge.pcap")
        let keyLog = try RecordedCapture("bridge").keyLog()
        var previousPackets = 0
        for cut in Array(stride(from: 0, to: bridge.count, by: 331)) + [bridge.count] {
            let path = try scratch.write(Array(bridge.prefix(cut)), to: "cut-\(cut).pcap")

            let analysis = try Analysis(file: path, configuration: AnalysisConfiguration(keyLog: keyLog))

            let summary = try #require(analysis.summary, "cut at \(cut): the analysis did not end")
            #expect(summary.packets >= previousPackets, "cut at \(cut)")
            previousPackets = summary.packets
        }
        #expect(previousPackets == Self.records(of: bridge).count)
    }

    @Test("Garbage in every packet of the pair-setup connection leaves the pair-verified session after it decoded")
    func corruptedConnection() throws {
        let scratch = try ScratchDirectory()
        var bridge = try RecordedCapture.bytes("bridge.pcap")
        var corrupted = 0
        for record in Self.records(of: bridge) {
            guard let ports = Self.ports(bridge, record), ports.source == 49_201 || ports.destination == 49_201 else { continue }
            // Keep Ethernet, IP and the fixed TCP header; overwrite options and payload.
            for index in record.dataRange.dropFirst(54) { bridge[index] = UInt8(truncatingIfNeeded: index &* 131) }
            corrupted += 1
        }
        try #require(corrupted > 10)
        let path = try scratch.write(bridge, to: "corrupted.pcap")

        let analysis = try Analysis(file: path, configuration: AnalysisConfiguration(keyLog: try RecordedCapture("bridge").keyLog()))

        #expect(!analysis.pairingMessages.contains { $0.connection.controller.port == 49_201 && $0.state == .m6 })
        #expect(analysis.databases.contains { $0.connection.controller.port == 49_202 && $0.database != nil })
        #expect(analysis.summary != nil)
    }

    @Test("Random byte flips in recorded captures never stop the analysis before its end", arguments: ["bridge", "lossy-link", "ipv6", "multi-connection"])
    func randomFlips(_ scenario: String) throws {
        let scratch = try ScratchDirectory()
        let recorded = try RecordedCapture.bytes(scenario + ".pcap")
        let keyLog = try RecordedCapture(scenario).keyLog()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(recorded.count)
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for mutant in 0 ..< 12 {
            var bytes = recorded
            for _ in 0 ..< 1 + random(40) {
                // Past the file header, so that the file stays readable and the packets get the damage.
                bytes[CaptureFile.fileHeaderLength + random(bytes.count - CaptureFile.fileHeaderLength)] = UInt8(random(256))
            }
            let path = try scratch.write(bytes, to: "\(scenario)-\(mutant).pcap")

            let analysis = try Analysis(file: path, configuration: AnalysisConfiguration(keyLog: keyLog))

            #expect(analysis.summary != nil, "mutant \(mutant) of \(scenario) did not end")
        }
    }
}
