import Capture
import Packets
import TCPReassembly

/// Runs the whole analysis: packets in, one event stream out.
///
/// Feed it packets with `process(_:)` (from a file reader or a live capture) and call `finish()`
/// at the end; every event reaches the sink in capture order, as soon as it is known.
public final class CaptureAnalyzer {
    private let context: AnalysisContext
    private let decoder: PacketDecoder
    private let tracker: ConnectionTracker
    private let reassembler: TCPReassembler<ConnectionTracker>
    /// Link types already reported as unsupported, so each is reported once.
    private var reportedLinkTypes: Set<UInt32> = []
    private var lastIdleSweep: Int64 = 0
    /// Datagrams the fragment reassembler dropped at its limits, as last reported.
    private var fragmentDatagramsDropped = 0

    /// - Parameter export: writes the decrypted copy of the capture as the analysis goes.
    public init(configuration: AnalysisConfiguration, export: DecryptedCaptureExport? = nil, sink: @escaping (HAPEvent) -> Void) {
        context = AnalysisContext(configuration: configuration, export: export, sink: sink)
        decoder = PacketDecoder(configuration: PacketDecoder.Configuration(fragmentReassembly: configuration.limits.fragments))
        tracker = ConnectionTracker(context: context)
        reassembler = TCPReassembler(limits: configuration.limits.tcp, delegate: tracker)
        for warning in configuration.keyLog.warnings {
            context.emit(.problem(CaptureProblem(.keyLog, warning.description)), nil)
        }
    }

    /// Announces a new input (a file or an interface), for reports that list their sources.
    public func inputOpened(name: String, linkType: LinkType) {
        context.emit(.inputOpened(InputOpenedEvent(name: name, linkType: linkType.description)), nil)
    }

    /// Analyses one captured packet.
    public func process(_ packet: CapturedPacket) {
        let info = packet.info
        context.summary.packets += 1
        context.summary.bytes += info.capturedLength
        if context.summary.firstPacketTime == nil { context.summary.firstPacketTime = info.timestamp }
        context.summary.lastPacketTime = info.timestamp
        sweepIdleConnections(at: info.timestamp)
        context.export?.begin(packet)
        defer { context.export?.end() }
        do {
            switch try decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: info) {
            case .tcp(let segment):
                context.export?.observe(segment)
                reassembler.process(segment)
            case .udp(let datagram):
                context.summary.udpDatagrams += 1
                if DiscoveryTracker.isMDNS(datagram) {
                    context.summary.mdnsMessages += 1
                    let evictions = context.discovery.evictions
                    context.discovery.process(datagram) { context.emit($0, info) }
                    if context.discovery.evictions > evictions {
                        context.limitReached("mdns.instances", "more mDNS service instances than the mdns.instances limit: the oldest are forgotten", info)
                    }
                }
            case .notIP, .otherIPProtocol:
                context.summary.otherPackets += 1
            case .fragmentBuffered:
                if decoder.statistics.datagramsDroppedByLimit > fragmentDatagramsDropped {
                    fragmentDatagramsDropped = decoder.statistics.datagramsDroppedByLimit
                    context.limitReached("ip.fragments", "IP fragments beyond the ip.fragment-datagrams or ip.fragment-bytes limit: the oldest waiting datagrams were dropped", info)
                }
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
    /// reports the totals.
    public func finish() {
        decoder.finish()
        if decoder.statistics.datagramsDroppedByLimit > fragmentDatagramsDropped {
            context.limitReached("ip.fragments", "IP fragments beyond the ip.fragment-datagrams or ip.fragment-bytes limit: waiting datagrams were dropped", nil)
        }
        reassembler.finish()
        let statistics = reassembler.statistics
        for (name, count) in [
            ("tcp.connections", statistics.connectionLimitHits),
            ("tcp.buffered-bytes-per-direction", statistics.bufferedBytesPerDirectionLimitHits),
            ("tcp.buffered-bytes", statistics.bufferedBytesLimitHits),
            ("tcp.out-of-order-segments", statistics.outOfOrderSegmentsLimitHits),
        ] where count > 0 {
            context.summary.limitsReached[name, default: 0] += count
        }
        context.emit(.inputEnded(context.summary), nil)
    }

    /// Idle connections are expired by capture time, checked once per capture second so that the
    /// sweep costs nothing per packet.
    private func sweepIdleConnections(at now: Timestamp) {
        guard now.seconds != lastIdleSweep else { return }
        lastIdleSweep = now.seconds
        reassembler.expireIdleConnections(at: now)
    }
}

extension CaptureAnalyzer {
    /// Analyses every packet of `reader`'s files, then finishes. A damaged file is reported and
    /// reading goes on with the next one; `progress` is called every few thousand packets.
    public func analyze(_ reader: CaptureFileReader, progress: ((CaptureProgress, Int) -> Void)? = nil) {
        var fileIndex = -1
        while true {
            do {
                guard let packet = try reader.next() else { break }
                if packet.fileIndex != fileIndex {
                    fileIndex = packet.fileIndex
                    inputOpened(name: reader.files[fileIndex], linkType: packet.linkType)
                }
                process(packet)
                if let progress, reader.packetsRead % 4096 == 0 { progress(reader.progress, reader.packetsRead) }
            } catch {
                // The reader goes on with the next file after any error of this one.
                inputProblem(error.description)
            }
        }
        finish()
    }
}
