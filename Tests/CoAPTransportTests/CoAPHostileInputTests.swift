import Capture
import Foundation
import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// HAP over CoAP on hostile UDP: damaged recordings and floods end their analysis, are reported,
/// and hold no more than the limits allow.
@Suite("HAP over CoAP: hostile input")
struct CoAPHostileInputTests {
    private static func analyse(_ bytes: [UInt8], keyLog: KeyLog = KeyLog(), limits: (inout AnalysisLimits) -> Void = { _ in }) throws -> [HAPEvent] {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(bytes, to: "coap.pcap")
        var configuration = AnalysisConfiguration(keyLog: keyLog)
        limits(&configuration.limits)
        var events: [HAPEvent] = []
        AnalysisPipeline(configuration: configuration, consumers: [EventSink { events.append($0) }]).run(try CaptureFileReader(files: [path]))
        return events
    }

    /// A classic pcap file (little-endian, microseconds, Ethernet) of `frames`, a millisecond apart.
    private static func pcap(_ frames: [[UInt8]]) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        var file = le32(0xA1B2_C3D4) + [2, 0, 4, 0] + le32(0) + le32(0) + le32(65_535) + le32(1)
        for (index, frame) in frames.enumerated() {
            file += le32(1_800_000_000) + le32(UInt32(index * 1000)) + le32(UInt32(frame.count)) + le32(UInt32(frame.count)) + frame
        }
        return file
    }

    /// The offsets of the CoAP payloads of an Ethernet/IPv6/UDP pcap, as the recordings have them.
    private static func coapPayloads(_ file: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 24
        while offset + 16 <= file.count {
            let length = (0 ..< 4).reduce(0) { $0 | Int(file[offset + 8 + $1]) << (8 * $1) }
            let data = offset + 16
            if length > 62, file[data + 12] == 0x86, file[data + 13] == 0xDD, file[data + 20] == 17 {
                let ports = [data + 54, data + 56].map { UInt16(file[$0]) << 8 | UInt16(file[$0 + 1]) }
                if ports.contains(5683) { ranges.append(data + 62 ..< data + length) }
            }
            offset = data + length
        }
        return ranges
    }

    @Test("random bytes changed in the CoAP payloads of the recordings never stop the analysis", arguments: ["clean", "large-database"])
    func randomFlips(_ scenario: String) throws {
        let capture = RecordedCapture("coap/" + scenario)
        let recorded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture.capturePath)))
        let payloads = Self.coapPayloads(recorded)
        try #require(payloads.count > 50)
        var random = SeededRandom(seed: 0xC0A9 ^ UInt64(recorded.count))
        for mutant in 0 ..< 8 {
            var bytes = recorded
            for _ in 0 ..< Int.random(in: 1 ... 24, using: &random) {
                let payload = payloads.randomElement(using: &random)!
                bytes[Int.random(in: payload, using: &random)] = UInt8.random(in: 0 ... 255, using: &random)
            }
            let events = try Self.analyse(bytes, keyLog: capture.keyLog())
            #expect(events.contains { if case .inputEnded = $0.kind { true } else { false } }, "mutant \(mutant) did not end")
        }
    }

    @Test("a flood of controller ports is followed only up to coap.sessions, and the bound is reported once")
    func sessionFlood() throws {
        let frames = (0 ..< 40).map { index in
            // CON POST, message ID = index, token 1 byte, no options, payload marker and one byte.
            let message: [UInt8] = [0x41, 0x02, 0, UInt8(index), 0xAB, 0xFF, 0x00]
            return Frames.ethernet(Frames.ipv4(Frames.udp(message, sourcePort: UInt16(40_000 + index), destinationPort: 5683), protocol: 17))
        }
        let events = try Self.analyse(Self.pcap(frames)) { $0.maximumCoAPSessions = 8 }
        let opened = events.filter { if case .connectionOpened = $0.kind { true } else { false } }
        let closed = events.compactMap { if case .connectionClosed(let summary) = $0.kind { summary } else { nil } }
        #expect(opened.count == 40)
        #expect(closed.count == 40)
        #expect(closed.filter { $0.reason == .evicted }.count == 32)
        let limits = events.compactMap { if case .problem(let problem) = $0.kind, problem.kind == .limitReached { problem.limit } else { nil } }
        #expect(limits == [.coapSessions])
        let summary = events.compactMap { if case .inputEnded(let summary) = $0.kind { summary } else { nil } }.first
        #expect(summary?.limitsReached[.coapSessions] == 32)
    }

    @Test("datagrams on port 5683 that are not CoAP are left alone, and a broken CoAP message is reported at its offset")
    func notCoAP() throws {
        let frames = [
            // Version 0: not taken on the port alone.
            Frames.ethernet(Frames.ipv4(Frames.udp([0x00, 0x01, 0x02, 0x03], sourcePort: 40_000, destinationPort: 5683), protocol: 17)),
            // Version 1, token length 9 (reserved).
            Frames.ethernet(Frames.ipv4(Frames.udp([0x49, 0x02, 0x00, 0x01], sourcePort: 40_001, destinationPort: 5683), protocol: 17)),
        ]
        let events = try Self.analyse(Self.pcap(frames))
        let opened = events.compactMap { if case .connectionOpened(let opened) = $0.kind { opened } else { nil } }
        #expect(opened.map(\.connection.controller.port) == [40_001])
        let problems = events.compactMap { if case .problem(let problem) = $0.kind { problem } else { nil } }
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("token length of at most 8") == true)
        #expect(problems.first?.message.contains("at byte 0") == true, "\(problems.first?.message ?? "")")
    }

    @Test("pending requests without responses are held only up to coap.pending-requests")
    func pendingFlood() throws {
        let frames = (0 ..< 20).map { index in
            let message: [UInt8] = [0x41, 0x02, 0, UInt8(index), UInt8(index)]
            return Frames.ethernet(Frames.ipv4(Frames.udp(message, sourcePort: 40_000, destinationPort: 5683), protocol: 17))
        }
        let events = try Self.analyse(Self.pcap(frames)) { $0.maximumCoAPPendingRequests = 4 }
        let summary = events.compactMap { if case .inputEnded(let summary) = $0.kind { summary } else { nil } }.first
        #expect(summary?.limitsReached[.coapPendingRequests] == 16)
    }

    /// A CON POST to `/` carrying block `number` (M set, 1024 bytes, SZX 6) of a Block1 body.
    private static func block1(_ number: UInt8, messageID: UInt16, sourcePort: UInt16) -> [UInt8] {
        // Option delta 27 (Block1) as 13 + 14, length 1: NUM << 4 | M << 3 | SZX (RFC 7959 §2.2).
        let block: UInt8 = number << 4 | 0x08 | 6
        var message: [UInt8] = [0x41, 0x02, UInt8(messageID >> 8), UInt8(messageID & 0xFF), 0xB1, 0xD1, 0x0E, block, 0xFF]
        message += [UInt8](repeating: number, count: 1024)
        return Frames.ethernet(Frames.ipv4(Frames.udp(message, sourcePort: sourcePort, destinationPort: 5683), protocol: 17))
    }

    /// Twelve controller ports each sending the first eight blocks of a body that never ends.
    private static let blockFlood: [[UInt8]] = (0 ..< 8).flatMap { (number: Int) -> [[UInt8]] in
        (0 ..< 12).map { (port: Int) -> [UInt8] in
            let messageID = UInt16(number) << 8 | UInt16(port)
            return block1(UInt8(number), messageID: messageID, sourcePort: UInt16(41_000 + port))
        }
    }

    @Test("block-wise bodies of many sessions are held only up to coap.held-bytes in all, and the bound is reported")
    func heldBytesBudget() throws {
        // 12 sessions × 8 KiB each would be 96 KiB; each session alone stays within its own bounds.
        let events = try Self.analyse(Self.pcap(Self.blockFlood)) { $0.maximumCoAPHeldBytes = 16 << 10 }
        let summary = try #require(events.compactMap { if case .inputEnded(let summary) = $0.kind { summary } else { nil } }.first)
        let hits = try #require(summary.limitsReached[.coapHeldBytes])
        #expect(hits > 0)
        let limits = events.compactMap { if case .problem(let problem) = $0.kind, problem.kind == .limitReached { problem.limit } else { nil } }
        #expect(limits == [.coapHeldBytes], "reported once, when first reached")
        let dropped = events.compactMap { if case .problem(let problem) = $0.kind, problem.kind != .limitReached, problem.message.contains("coap.held-bytes") { problem } else { nil } }
        #expect(dropped.count == hits, "each drop names its session and packet")
        #expect(dropped.allSatisfy { $0.connection?.transport == .coap })
        // Within the default budget the same flood is held whole, and cut off only when the capture ends.
        let held = try Self.analyse(Self.pcap(Self.blockFlood))
        let heldSummary = try #require(held.compactMap { if case .inputEnded(let summary) = $0.kind { summary } else { nil } }.first)
        #expect(heldSummary.limitsReached[.coapHeldBytes] == nil)
        let cutOff = held.compactMap { if case .problem(let problem) = $0.kind, problem.message.contains("was cut off") { problem } else { nil } }
        #expect(cutOff.count == 12)
    }
}

/// A session whose pair-verify the capture does not hold: the key log's session for its endpoints
/// (`SESSION_ENDPOINTS`) opens it.
@Suite("HAP over CoAP: joining a session from the key log")
struct CoAPKeyLogJoinTests {
    @Test("without its pair-verify, the session is joined by SESSION_ENDPOINTS and decoded as with it")
    func joinWithoutPairVerify() throws {
        let capture = RecordedCapture("coap/clean")
        let recorded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture.capturePath)))
        // Leave out the records of the session's first four CoAP datagrams: pair-verify M1–M4 on /2.
        var kept = Array(recorded[0 ..< 24])
        var offset = 24
        var dropped = 0
        while offset + 16 <= recorded.count {
            let length = (0 ..< 4).reduce(0) { $0 | Int(recorded[offset + 8 + $1]) << (8 * $1) }
            let data = offset + 16
            let ports = length > 62 && recorded[data + 20] == 17
                ? [data + 54, data + 56].map { UInt16(recorded[$0]) << 8 | UInt16(recorded[$0 + 1]) } : []
            if ports.contains(49_202), dropped < 4 {
                dropped += 1
            } else {
                kept += recorded[offset ..< data + length]
            }
            offset = data + length
        }
        try #require(dropped == 4)
        let scratch = try ScratchDirectory()
        let path = try scratch.write(kept, to: "joined.pcap")
        var events: [HAPEvent] = []
        AnalysisPipeline(configuration: AnalysisConfiguration(keyLog: try capture.keyLog()), consumers: [EventSink { events.append($0) }])
            .run(try CaptureFileReader(files: [path]))

        let starts = events.compactMap { if case .sessionStarted(let start) = $0.kind { start } else { nil } }
        #expect(starts.count == 1)
        #expect(starts.first?.trigger == .beforeCapture)
        #expect(starts.first?.keyLogMatch == .sessionEndpoints)
        #expect(starts.first?.decryptable == Set(HAPDirection.allCases))
        let activities = events.compactMap { if case .characteristic(let activity) = $0.kind { activity } else { nil } }
        let withPairVerify = try RecordedAnalysis("coap/clean").events { if case .characteristic(let activity) = $0 { activity } else { nil } }
        #expect(activities.map(\.id) == withPairVerify.map(\.id))
        #expect(activities.filter { $0.kind == .event }.count == 7, "the event key was found from the key log too")
    }
}
