import Capture
import Foundation
import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import TestSupport
import Testing

/// One packet of a capture a test writes: the bytes kept, and the length the packet had on the
/// wire when the snap length cut it.
struct CaptureRecord {
    var bytes: [UInt8]
    var originalLength: Int?

    init(_ bytes: [UInt8], originalLength: Int? = nil) {
        self.bytes = bytes
        self.originalLength = originalLength
    }
}

/// Everything the analysis said about one input, the way `hapscope` runs it.
struct Analysis {
    let events: [HAPEvent]

    /// Analyses the capture file at `path`.
    init(file path: String, configuration: AnalysisConfiguration = AnalysisConfiguration()) throws {
        try self.init(files: [path], configuration: configuration)
    }

    /// Analyses capture files one after another, as `hapscope summary a.pcap b.pcap` does.
    init(files: [String], configuration: AnalysisConfiguration = AnalysisConfiguration()) throws {
        var events: [HAPEvent] = []
        let pipeline = AnalysisPipeline(configuration: configuration, consumers: [EventSink { events.append($0) }])
        do {
            pipeline.run(try CaptureFileReader(files: files))
        } catch {
            // As `hapscope` does: a file that cannot be opened is reported, and the run ends.
            pipeline.inputProblem(error.description)
            pipeline.finish()
        }
        self.events = events
    }

    /// Writes `records` to a pcap file with `PcapWriter`, one millisecond apart, and analyses it.
    init(
        records: [CaptureRecord], linkType: LinkType = .ethernet, snapLength: Int = 262_144,
        configuration: AnalysisConfiguration = AnalysisConfiguration()
    ) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("capture.pcap")
        let writer = try PcapWriter(file: path, linkType: linkType, snapLength: snapLength)
        for (index, record) in records.enumerated() {
            let time = Timestamp(seconds: 1_700_000_000 + Int64(index / 1_000), nanoseconds: UInt32(index % 1_000) * 1_000_000)
            record.bytes.withUnsafeBytes { writer.write($0, timestamp: time, originalLength: record.originalLength) }
        }
        try writer.close()
        try self.init(file: path, configuration: configuration)
    }

    /// Writes whole frames and analyses them.
    init(frames: [[UInt8]], linkType: LinkType = .ethernet, configuration: AnalysisConfiguration = AnalysisConfiguration()) throws {
        try self.init(records: frames.map { CaptureRecord($0) }, linkType: linkType, configuration: configuration)
    }

    var problems: [CaptureProblem] {
        events.compactMap { if case .problem(let problem) = $0.kind { problem } else { nil } }
    }

    func problems(_ kind: CaptureProblem.Kind) -> [CaptureProblem] {
        problems.filter { $0.kind == kind }
    }

    /// The problems of `kind` with the packet each was reported with.
    func problemEvents(_ kind: CaptureProblem.Kind) -> [(problem: CaptureProblem, packet: PacketInfo?)] {
        events.compactMap { event in
            guard case .problem(let problem) = event.kind, problem.kind == kind else { return nil }
            return (problem, event.packet)
        }
    }

    var sessionProblems: [SessionProblemEvent] {
        events.compactMap { if case .sessionProblem(let problem) = $0.kind { problem } else { nil } }
    }

    var httpMessages: [HTTPMessageEvent] {
        events.compactMap { if case .httpMessage(let message) = $0.kind { message } else { nil } }
    }

    var pairingMessages: [PairingMessageEvent] {
        events.compactMap { if case .pairingMessage(let message) = $0.kind { message } else { nil } }
    }

    var databases: [AccessoryDatabaseEvent] {
        events.compactMap { if case .accessoryDatabase(let database) = $0.kind { database } else { nil } }
    }

    var advertisements: [AdvertisementEvent] {
        events.compactMap { if case .advertisement(let advertisement) = $0.kind { advertisement } else { nil } }
    }

    /// The totals of the `inputEnded` event, which must be the last.
    var summary: InputSummary? {
        guard case .inputEnded(let summary)? = events.last?.kind else { return nil }
        return summary
    }

    /// Whether `exchange` was decoded in full: its pair-setup M2 with the SRP key, and its
    /// accessory database.
    func decoded(_ exchange: HAPExchange) -> Bool {
        let port = exchange.controllerPort
        let m2 = pairingMessages.contains { message in
            guard message.connection.controller.port == port, message.procedure == .pairSetup, message.state == .m2,
                  case .pairSetup(.m2(let m2))? = message.content else { return false }
            return m2.publicKey?.count == 384 && m2.salt?.count == 16
        }
        let database = databases.contains { event in
            event.connection.controller.port == port && event.database?.accessories.first?.name == "Hostile Test Light"
        }
        return m2 && database
    }
}

/// Capture files written for a test, and the raw record layout for damaging them by hand.
enum CaptureFile {
    /// The bytes of a nanosecond pcap file holding `records`, written with `PcapWriter`.
    static func pcap(_ records: [CaptureRecord], linkType: LinkType = .ethernet, snapLength: Int = 262_144) throws -> [UInt8] {
        let scratch = try ScratchDirectory()
        let path = scratch.file("capture.pcap")
        let writer = try PcapWriter(file: path, linkType: linkType, snapLength: snapLength)
        for (index, record) in records.enumerated() {
            let time = Timestamp(seconds: 1_700_000_000 + Int64(index / 1_000), nanoseconds: UInt32(index % 1_000) * 1_000_000)
            record.bytes.withUnsafeBytes { writer.write($0, timestamp: time, originalLength: record.originalLength) }
        }
        try writer.close()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The bytes of a pcap file holding whole `frames`.
    static func pcap(frames: [[UInt8]], linkType: LinkType = .ethernet) throws -> [UInt8] {
        try pcap(frames.map { CaptureRecord($0) }, linkType: linkType)
    }

    /// A pcap record header in the little-endian layout `PcapWriter` uses on this machine.
    static func recordHeader(capturedLength: UInt32, originalLength: UInt32, seconds: UInt32 = 1_700_000_100) -> [UInt8] {
        [seconds, 0, capturedLength, originalLength].flatMap { value in
            (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
    }

    /// The byte offset at which the pcap file header ends and the first record begins.
    static let fileHeaderLength = 24
}

extension Analysis: CustomTestStringConvertible {
    /// What a failed expectation shows: the size of the event stream and every problem, not the stream.
    var testDescription: String {
        "\(events.count) events, problems: \(problems.map(\.message))"
    }
}

/// pcapng blocks built by hand (draft-ietf-opsawg-pcapng §4), little-endian, for what
/// `PcapWriter` cannot write: several interfaces of different link types in one file.
enum PcapNG {
    static func sectionHeader() -> [UInt8] {
        block(type: 0x0A0D_0D0A, body: word(0x1A2B_3C4D) + [1, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8))
    }

    static func interfaceDescription(linkType: UInt16, snapLength: UInt32 = 262_144) -> [UInt8] {
        block(type: 1, body: [UInt8(truncatingIfNeeded: linkType), UInt8(linkType >> 8), 0, 0] + word(snapLength))
    }

    /// An enhanced packet block; timestamps count microseconds.
    static func enhancedPacket(interface: UInt32, microseconds: UInt64, _ data: [UInt8]) -> [UInt8] {
        let padding = [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
        return block(type: 6, body: word(interface) + word(UInt32(microseconds >> 32)) + word(UInt32(truncatingIfNeeded: microseconds))
            + word(UInt32(data.count)) + word(UInt32(data.count)) + data + padding)
    }

    private static func block(type: UInt32, body: [UInt8]) -> [UInt8] {
        let length = word(UInt32(12 + body.count))
        return word(type) + length + body + length
    }

    private static func word(_ value: UInt32) -> [UInt8] {
        (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
