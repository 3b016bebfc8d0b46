import Capture
import HAPCore
import HAPCrypto
import HAPEvents
import Packets
import Testing
import TestSupport
@testable import HAPAnalysis

@Suite("The one analysis loop")
struct AnalysisPipelineTests {
    static let start = Timestamp(seconds: 1_700_000_000, nanoseconds: 0)

    /// The capture time of the packet at `index`: a millisecond apart, unless `spacing` says otherwise.
    static func time(_ index: Int, spacing milliseconds: Int = 1) -> Timestamp {
        let total = Int64(index * milliseconds)
        return Timestamp(seconds: start.seconds + total / 1000, nanoseconds: UInt32(total % 1000) * 1_000_000)
    }

    /// A short plaintext HAP conversation on one connection: handshake, GET /accessories and
    /// its answer, the close.
    static var conversation: [[UInt8]] {
        var tcp = TCPConversation()
        var frames = tcp.handshake()
        frames.append(tcp.controllerSends(HTTPText.request("GET", "/accessories")))
        frames.append(tcp.accessorySends(HTTPText.jsonResponse(#"{"accessories":[]}"#)))
        return frames + tcp.close()
    }

    static let advertisement = Frames.mdns(MDNSMessages.advertisement(
        instance: "Lamp", txt: ["c#=1", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=Lamp", "pv=1.1", "s#=1", "sf=1", "ci=5"]))

    /// Runs `frames` through a pipeline fed packet by packet, numbered from `firstNumber`.
    static func process(
        _ frames: [[UInt8]], _ pipeline: AnalysisPipeline, linkType: LinkType = .ethernet, firstNumber: Int = 1,
        time: (Int) -> Timestamp = { AnalysisPipelineTests.time($0) }
    ) {
        for (index, frame) in frames.enumerated() {
            frame.withUnsafeBytes { bytes in
                let info = PacketInfo(number: firstNumber + index, timestamp: time(index), capturedLength: frame.count, originalLength: frame.count)
                pipeline.process(CapturedPacket(info: info, bytes: bytes, linkType: linkType, fileIndex: 0))
            }
        }
    }

    private func pipeline(
        _ configure: (inout AnalysisConfiguration) -> Void = { _ in }, observers: [CapturedPacketObserver] = []
    ) -> (AnalysisPipeline, EventRecorder) {
        var configuration = AnalysisConfiguration()
        configure(&configuration)
        let recorder = EventRecorder()
        return (AnalysisPipeline(configuration: configuration, consumers: [recorder], packetObservers: observers), recorder)
    }

    // MARK: Inputs

    @Test("an input is announced with its first packet's time, before anything that packet shows")
    func inputAnnouncedWithItsFirstPacket() throws {
        let (pipeline, recorder) = pipeline()
        pipeline.inputOpened(name: "lamp.pcap", linkType: .ethernet)
        #expect(recorder.events.isEmpty, "announced, not reported, until its first packet")
        Self.process([Self.advertisement], pipeline)
        guard case .inputOpened(let input)? = recorder.events.first?.kind else {
            Issue.record("the first event should open the input")
            return
        }
        #expect(input == InputOpenedEvent(name: "lamp.pcap", linkType: LinkType.ethernet.description, firstPacketTime: Self.time(0)))
        #expect(recorder.events.first?.packet == nil)
        #expect(recorder.advertisements.count == 1)
    }

    @Test("an input that delivered no packet is reported when the next begins, or at the end, without a time")
    func emptyInputs() throws {
        let (pipeline, recorder) = pipeline()
        pipeline.inputOpened(name: "empty.pcap", linkType: .ethernet)
        pipeline.inputOpened(name: "second.pcap", linkType: .raw)
        pipeline.finish()
        #expect(recorder.inputsOpened == [
            InputOpenedEvent(name: "empty.pcap", linkType: LinkType.ethernet.description, firstPacketTime: nil),
            InputOpenedEvent(name: "second.pcap", linkType: LinkType.raw.description, firstPacketTime: nil),
        ])
        #expect(recorder.inputSummaries.count == 1)
    }

    @Test("a file that is no capture is reported by name, and the next file is analysed")
    func notACaptureBetweenFiles() throws {
        let scratch = try ScratchDirectory()
        func capture(_ name: String, _ frames: [[UInt8]]) throws -> String {
            let writer = try PcapWriter(file: scratch.file(name), linkType: .ethernet)
            for (index, frame) in frames.enumerated() { frame.withUnsafeBytes { writer.write($0, timestamp: Self.time(index)) } }
            try writer.close()
            return scratch.file(name)
        }
        let first = try capture("first.pcap", [Self.advertisement])
        let junk = try scratch.write("this is not a capture, only text long enough to be read", to: "notes.txt")
        let last = try capture("last.pcap", Self.conversation)
        let (pipeline, recorder) = pipeline()
        let errors = pipeline.run(try CaptureFileReader(files: [first, junk, last]))
        #expect(errors.count == 1)
        #expect(recorder.inputsOpened.map(\.name) == ["first.pcap", "last.pcap"])
        let problem = try #require(recorder.problems(.captureFile).only)
        #expect(problem.problem.message.hasPrefix("notes.txt: not a pcap or pcapng capture file"))
        #expect(!problem.problem.message.contains(scratch.path), "the file is named, not its directory")
        #expect(recorder.httpMessages.count == 2, "the file after it was analysed")
        #expect(recorder.inputSummaries.only?.packets == 1 + Self.conversation.count)
    }

    @Test("reading files, progress is reported every 1024 packets")
    func progress() throws {
        let scratch = try ScratchDirectory()
        let writer = try PcapWriter(file: scratch.file("many.pcap"), linkType: .ethernet)
        for index in 0 ..< 2_100 { Self.advertisement.withUnsafeBytes { writer.write($0, timestamp: Self.time(index)) } }
        try writer.close()
        let (pipeline, _) = pipeline()
        var reports: [Int] = []
        pipeline.run(try CaptureFileReader(files: [scratch.file("many.pcap")])) { progress, packets in
            reports.append(packets)
            #expect(progress.bytesRead <= progress.totalBytes ?? .max)
        }
        #expect(reports == [1_024, 2_048])
    }

    // MARK: The event stream

    @Test("key-log warnings are the first events, before any input")
    func keyLogWarningsFirst() throws {
        let keyLog = try KeyLog(parsing: "FUTURE_LABEL 00 11", source: "keys.log")
        let (pipeline, recorder) = pipeline { $0.keyLog = keyLog }
        pipeline.inputOpened(name: "a.pcap", linkType: .ethernet)
        Self.process([Self.advertisement], pipeline)
        guard case .problem(let problem)? = recorder.events.first?.kind else {
            Issue.record("the first event should be the key-log warning")
            return
        }
        #expect(problem.kind == .keyLog)
        #expect(problem.message == "keys.log:1: unknown label 'FUTURE_LABEL', line ignored")
    }

    @Test("every consumer receives every event in order, each event handed to all before the next")
    func consumersInOrder() throws {
        final class Log: HAPEventConsumer {
            let name: String
            let shared: SharedLog
            init(_ name: String, _ shared: SharedLog) {
                self.name = name
                self.shared = shared
            }
            func consume(_ event: HAPEvent) { shared.entries.append(name) }
        }
        let shared = SharedLog()
        let pipeline = AnalysisPipeline(configuration: AnalysisConfiguration(), consumers: [Log("model", shared), Log("audit", shared)])
        Self.process(Self.conversation, pipeline)
        pipeline.finish()
        #expect(shared.entries.count >= 8)
        #expect(shared.entries == Array(repeating: ["model", "audit"], count: shared.entries.count / 2).flatMap { $0 })
    }

    @Test("packet observers see each packet begin before its events and end after them")
    func observersBracketEachPacket() throws {
        final class Observer: CapturedPacketObserver {
            let shared: SharedLog
            init(_ shared: SharedLog) { self.shared = shared }
            func packetBegan(_ packet: CapturedPacket) { shared.entries.append("began \(packet.info.number)") }
            func packetEnded() { shared.entries.append("ended") }
        }
        final class Events: HAPEventConsumer {
            let shared: SharedLog
            init(_ shared: SharedLog) { self.shared = shared }
            func consume(_ event: HAPEvent) { shared.entries.append("event \(event.packet?.number.description ?? "-")") }
        }
        let shared = SharedLog()
        let pipeline = AnalysisPipeline(configuration: AnalysisConfiguration(), consumers: [Events(shared)], packetObservers: [Observer(shared)])
        Self.process(Self.conversation, pipeline)
        pipeline.finish()
        var open: Int?
        var began: [Int] = []
        for entry in shared.entries {
            if entry.hasPrefix("began ") {
                #expect(open == nil, "a packet begins only after the previous one ended")
                open = Int(entry.dropFirst(6))
                began.append(open ?? 0)
            } else if entry == "ended" {
                #expect(open != nil)
                open = nil
            } else if let number = Int(entry.dropFirst(6)), open != nil {
                #expect(number == open, "\(entry) inside packet \(open ?? 0)")
            }
        }
        #expect(began == Array(1 ... Self.conversation.count), "every packet, in order")
        #expect(shared.entries.last == "event -", "the totals come after the last packet ended")
    }

    @Test("finishing reports the totals once; a second finish does nothing")
    func finishOnce() throws {
        let (pipeline, recorder) = pipeline { $0.setupCode = try? SetupCode("123-45-678") }
        Self.process(Self.conversation + [Self.advertisement], pipeline)
        pipeline.finish()
        pipeline.finish()
        let summary = try #require(recorder.inputSummaries.only)
        #expect(summary.packets == Self.conversation.count + 1)
        #expect(summary.bytes == (Self.conversation + [Self.advertisement]).reduce(0) { $0 + $1.count })
        #expect(summary.firstPacketTime == Self.time(0))
        #expect(summary.lastPacketTime == Self.time(Self.conversation.count))
        #expect(summary.tcpConnections == 1)
        #expect(summary.hapConnections == 1)
        #expect(summary.udpDatagrams == 1)
        #expect(summary.mdnsMessages == 1)
        #expect(summary.setupCode == SetupCodeFact(code: "123-45-678", forbiddenBecause: "it is the sequence 123-45-678"))
        guard case .inputEnded? = recorder.events.last?.kind else {
            Issue.record("the totals end the stream")
            return
        }
    }

    // MARK: Packets

    @Test("a link type that cannot be decoded is reported once, and every such packet counted")
    func unsupportedLinkType() throws {
        let (pipeline, recorder) = pipeline()
        Self.process([[1, 2, 3, 4], [5, 6, 7, 8]], pipeline, linkType: LinkType(rawValue: 147))
        pipeline.finish()
        #expect(recorder.problems(.unsupportedLinkType).count == 1)
        #expect(recorder.inputSummaries.only?.undecodablePackets == 2)
    }

    @Test("an undecodable packet is a problem naming its number, and the next packet is analysed")
    func undecodablePacket() throws {
        let (pipeline, recorder) = pipeline()
        Self.process([Frames.ethernet([0x45, 0x00, 0x00]), Self.advertisement], pipeline, firstNumber: 7)
        let problem = try #require(recorder.problems(.undecodablePacket).only)
        #expect(problem.problem.message.hasPrefix("packet 7: "))
        #expect(problem.packet?.number == 7)
        #expect(recorder.advertisements.count == 1)
    }

    @Test("packets that are neither TCP nor UDP are counted as other")
    func otherPackets() throws {
        let (pipeline, recorder) = pipeline()
        Self.process([Frames.ethernet([1, 2, 3], etherType: 0x0806), Frames.ethernet(Frames.ipv4([8, 0, 0, 0], protocol: 1))], pipeline)
        pipeline.finish()
        #expect(recorder.inputSummaries.only?.otherPackets == 2)
        #expect(recorder.problems.isEmpty)
    }

    @Test("IP fragments dropped at a limit are reported by that limit's name, once, and counted")
    func fragmentLimits() throws {
        let (pipeline, recorder) = pipeline { $0.limits.fragments.maximumPendingDatagrams = 1 }
        let firstFragments = (1 ... 3).map { id in
            Frames.ethernet(Frames.ipv4([UInt8](repeating: 0, count: 16), protocol: 17, identification: UInt16(id), moreFragments: true))
        }
        Self.process(firstFragments, pipeline)
        pipeline.finish()
        let reported = recorder.problems(.limitReached)
        #expect(reported.map(\.problem.limit) == [.ipFragmentDatagrams])
        #expect(reported.first?.packet?.number == 2, "reported with the fragment that made the drop")
        #expect(recorder.inputSummaries.only?.limitsReached[.ipFragmentDatagrams] == 2)
    }

    @Test("every datagram dropped at a limit is counted, however many one fragment made room by dropping")
    func everyFragmentDropCounted() throws {
        // Each waiting datagram holds a 2 KiB buffer; the fourth needs 4 KiB, so two must go.
        let (pipeline, recorder) = pipeline { $0.limits.fragments.maximumPendingBytes = 3 * 2_048 }
        let waiting = (1 ... 3).map { id in
            Frames.ethernet(Frames.ipv4([UInt8](repeating: 0, count: 16), protocol: 17, identification: UInt16(id), moreFragments: true))
        }
        let large = Frames.ethernet(Frames.ipv4(
            [UInt8](repeating: 0, count: 16), protocol: 17, identification: 4, moreFragments: true, fragmentOffset: 2_048))
        Self.process(waiting + [large], pipeline)
        pipeline.finish()
        #expect(recorder.problems(.limitReached).map(\.problem.limit) == [.ipFragmentBytes])
        #expect(recorder.inputSummaries.only?.limitsReached[.ipFragmentBytes] == 2)
    }

    @Test("connections silent past the idle timeout are closed as capture time passes, before later packets")
    func idleSweep() throws {
        let (pipeline, recorder) = pipeline { $0.limits.tcp.idleTimeout = .seconds(10) }
        var tcp = TCPConversation()
        let opening = tcp.handshake() + [tcp.controllerSends(HTTPText.request("GET", "/accessories"))]
        Self.process(opening + [Self.advertisement], pipeline) { index in
            index < opening.count ? Self.time(index) : Timestamp(seconds: Self.start.seconds + 60, nanoseconds: 0)
        }
        let closed = recorder.events.firstIndex { if case .connectionClosed(let summary) = $0.kind { summary.reason == .idleTimeout } else { false } }
        let advertised = recorder.events.firstIndex { if case .advertisement = $0.kind { true } else { false } }
        #expect(closed != nil)
        #expect((closed ?? .max) < (advertised ?? .min))
    }
}

/// What several test doubles append to, in the order things happened.
final class SharedLog {
    var entries: [String] = []
}
