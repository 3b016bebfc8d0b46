import BLETransport
import Bluetooth
import Capture
import CoAPTransport
import HAPCore
import HAPEvents
import IPTransport
import Packets
import WireParsing

/// The one analysis loop: captured packets in, one event stream out, in capture order, to every
/// consumer (the model, the audit, the reports, the exports) as soon as each event is known.
///
/// Files, live interfaces, the tests, the fuzzers and hapbench all drive it the same way: `run`
/// over a reader or a live capture, or `process` packet by packet and `finish` at the end.
///
/// Packets are decoded by link type and handed to their transport: TCP segments and mDNS to HAP
/// over IP, other UDP to HAP over CoAP (which also learns `_hap._udp` endpoints from the mDNS);
/// HCI packets of the Bluetooth link types to HAP over Bluetooth LE. A transport emits the shared
/// vocabulary of `HAPEvents`, so consumers never need to know which transport an event came from
/// unless they ask (`ConnectionInfo.transport`).
public final class AnalysisPipeline {
    private let context: AnalysisContext
    /// In a sharded run, where the HAP-over-IP connections run (`ShardedAnalysis`).
    private let shipping: ConnectionShipping?
    private let observers: [CapturedPacketObserver]
    private let decoder: PacketDecoder
    private let ip: IPTransport
    private let coap: CoAPTransport
    private let ble: BLETransport
    /// Link types already reported as unsupported, so each is reported once.
    private var reportedLinkTypes: Set<UInt32> = []
    /// Datagrams the fragment reassembler dropped at each limit, as last reported.
    private var fragmentDrops: [LimitName: Int] = [:]
    /// An input announced but not yet reported: it is reported with its first packet's time.
    private var announcedInput: (name: String, linkType: LinkType)?
    private var finished = false

    /// - Parameters:
    ///   - consumers: receive every event, in this order.
    ///   - packetObservers: see every packet before and after its analysis.
    public convenience init(configuration: AnalysisConfiguration, consumers: [HAPEventConsumer], packetObservers: [CapturedPacketObserver] = []) {
        self.init(context: AnalysisContext(configuration: configuration) { event in
            for consumer in consumers { consumer.consume(event) }
        }, packetObservers: packetObservers, shipping: nil)
    }

    /// The loop over `context`: one job's real context, or the reader's recording context of a
    /// sharded run, whose HAP-over-IP connections `shipping` runs.
    init(context: AnalysisContext, packetObservers: [CapturedPacketObserver], shipping: ConnectionShipping?) {
        let configuration = context.configuration
        self.context = context
        self.shipping = shipping
        observers = packetObservers
        decoder = PacketDecoder(configuration: PacketDecoder.Configuration(fragmentReassembly: configuration.limits.fragments))
        ip = IPTransport(context: context, shipping: shipping)
        coap = CoAPTransport(context: context)
        ble = BLETransport(context: context)
        for warning in configuration.keyLog.warnings {
            context.emit(.problem(CaptureProblem(.keyLog, warning.description)), nil)
        }
    }

    /// The run's totals so far: a sharded run's merger ends the run with the reader's.
    var summary: InputSummary { context.summary }

    /// Announces a new input (a file or an interface); it is reported with its first packet.
    public func inputOpened(name: String, linkType: LinkType) {
        reportAnnouncedInput(firstPacketTime: nil)
        announcedInput = (name, linkType)
        context.currentInput = name
        shipping?.inputChanged(name)
    }

    private func reportAnnouncedInput(firstPacketTime: Timestamp?) {
        guard let input = announcedInput else { return }
        announcedInput = nil
        context.emit(.inputOpened(InputOpenedEvent(
            name: input.name, linkType: input.linkType.description, firstPacketTime: firstPacketTime)), nil)
    }

    /// Analyses one captured packet.
    public func process(_ packet: CapturedPacket) {
        let info = packet.info
        reportAnnouncedInput(firstPacketTime: info.timestamp)
        context.summary.packets += 1
        context.summary.bytes += info.capturedLength
        if context.summary.firstPacketTime == nil { context.summary.firstPacketTime = info.timestamp }
        context.summary.lastPacketTime = info.timestamp
        ip.sweepIdleConnections(at: info.timestamp)
        for observer in observers { observer.packetBegan(packet) }
        defer { for observer in observers { observer.packetEnded() } }
        if let bluetooth = BluetoothLinkType(rawValue: packet.linkType.rawValue) {
            ble.process(packet.bytes, linkType: bluetooth, packet: info)
            return
        }
        do {
            switch try decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: info) {
            case .tcp(let segment):
                ip.process(segment)
            case .udp(let datagram):
                context.summary.udpDatagrams += 1
                // mDNS is HAP over IP's, and tells HAP over CoAP where `_hap._udp` accessories are.
                switch ip.process(datagram, packet: info) {
                case .mdns(let discovery):
                    if let discovery { coap.observeDiscovery(discovery, sender: datagram.source) }
                case .notMDNS:
                    _ = coap.process(datagram, packet: info)
                }
            case .notIP, .otherIPProtocol:
                context.summary.otherPackets += 1
            case .fragmentBuffered:
                reportFragmentDrops(info)
            }
        } catch {
            context.summary.undecodablePackets += 1
            if error.code == .unsupported, !reportedLinkTypes.insert(packet.linkType.rawValue).inserted { return }
            context.emit(.problem(CaptureProblem(
                error.code == .unsupported ? .unsupportedLinkType : .undecodablePacket,
                "packet \(info.number): \(error)")), info)
        }
    }

    /// Reports a damaged input file; the packets before the damage were analysed.
    public func inputProblem(_ message: String) {
        context.emit(.problem(CaptureProblem(.captureFile, message)), nil)
    }

    /// Ends the analysis: delivers what reassembly still holds, closes every connection and
    /// reports the totals. Later calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        reportAnnouncedInput(firstPacketTime: nil)
        decoder.finish()
        reportFragmentDrops(nil)
        ip.finish()
        coap.finish()
        ble.finish()
        if let code = context.configuration.setupCode {
            context.summary.setupCode = SetupCodeFact(code: code.text, forbiddenBecause: code.forbiddenReason?.description)
        }
        context.endRun()
    }

    private func reportFragmentDrops(_ packet: PacketInfo?) {
        for (limit, count) in decoder.statistics.datagramsDroppedByLimit.sorted(by: { $0.key < $1.key })
        where count > fragmentDrops[limit, default: 0] {
            // One fragment can drop several waiting datagrams to make room: each counts.
            let dropped = count - fragmentDrops[limit, default: 0]
            fragmentDrops[limit] = count
            context.limitReached(limit, "IP fragments beyond the \(limit) limit: waiting datagrams were dropped", packet)
            context.addLimitHits(limit, dropped - 1)
        }
    }
}

extension AnalysisPipeline {
    /// Analyses every packet of `reader`'s files, then finishes. A damaged file is reported
    /// (as a problem naming the file by its name) and reading goes on with the next one;
    /// `progress` is called every 1024 packets.
    ///
    /// - Returns: the errors the files gave, as the reader threw them, for the caller's exit status.
    @discardableResult
    public func run(_ reader: CaptureFileReader, progress: ((CaptureProgress, Int) -> Void)? = nil) -> [CaptureError] {
        let errors = read(reader, progress: progress) { true }
        finish()
        return errors
    }

    /// Analyses `reader`'s packets, asking `goOn` after each whether to read another (a sharded
    /// run stops at a conflict); does not finish.
    func read(_ reader: CaptureFileReader, progress: ((CaptureProgress, Int) -> Void)?, goOn: () -> Bool) -> [CaptureError] {
        var errors: [CaptureError] = []
        var fileIndex = -1
        while true {
            do {
                guard let packet = try reader.next() else { break }
                if packet.fileIndex != fileIndex {
                    fileIndex = packet.fileIndex
                    inputOpened(name: CaptureError.fileName(reader.files[fileIndex]), linkType: packet.linkType)
                }
                process(packet)
                if let progress, reader.packetsRead & 1023 == 0 { progress(reader.progress, reader.packetsRead) }
                guard goOn() else { break }
            } catch {
                // The reader goes on with the next file after any error of this one.
                inputProblem(error.withFileNamesShortened.description)
                errors.append(error)
            }
        }
        return errors
    }

    /// Analyses what `capture` delivers until it ends (its packet count, its duration, or a stop
    /// request), then finishes.
    ///
    /// - Throws: the error that ended the capture early; the analysis is finished all the same.
    public func run(_ capture: LiveCapture, interface: String) throws(CaptureError) {
        inputOpened(name: interface, linkType: capture.linkType)
        defer { finish() }
        while let packet = try capture.next() {
            process(packet)
        }
    }
}
