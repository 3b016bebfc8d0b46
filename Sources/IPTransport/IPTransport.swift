import DNS
import HAPCore
import HAPEvents
import Packets
import TCPReassembly
import WireParsing

/// HAP over IP: TCP streams reassembled and recognised as HAP connections (HTTP, pairing, the
/// encrypted session), and the mDNS advertisements that say where accessories listen.
///
/// The pipeline hands it every TCP segment and UDP datagram; everything it learns leaves as
/// events through the shared `AnalysisContext`.
package final class IPTransport {
    private let context: AnalysisContext
    private let discovery: DiscoveryTracker
    private let tracker: ConnectionTracker
    private let reassembler: TCPReassembler<ConnectionTracker>
    private var lastIdleSweep: Int64 = 0

    /// - Parameter shipping: in a sharded run (`--jobs`), where the HAP connections run; nil:
    ///   here.
    package init(context: AnalysisContext, shipping: ConnectionShipping? = nil) {
        self.context = context
        discovery = DiscoveryTracker(setupID: context.configuration.setupID, maximumInstances: context.limits.maximumMDNSInstances)
        tracker = ConnectionTracker(context: context, discovery: discovery, shipping: shipping)
        reassembler = TCPReassembler(limits: context.limits.tcp, delegate: tracker) { [unowned context] in context.nextConnectionID() }
    }

    package func process(_ segment: TCPSegment) {
        reassembler.process(segment)
    }

    /// Takes the datagram if it is HAP over IP's (mDNS); returns whether it did.
    package func process(_ datagram: UDPDatagram, packet: PacketInfo) -> MDNSDatagram {
        guard DiscoveryTracker.isMDNS(datagram) else { return .notMDNS }
        context.summary.mdnsMessages += 1
        let evictions = discovery.evictions
        let decoded = discovery.process(datagram) { context.emit($0, packet) }
        if discovery.evictions > evictions {
            context.limitReached(.mdnsInstances, "more mDNS service instances than the mdns.instances limit: the oldest are forgotten", packet)
        }
        return .mdns(decoded)
    }

    /// Whether a UDP datagram was mDNS, which HAP over IP takes, and what it decoded to (nil
    /// when it did not): decoded once, and shown to the transports that find accessories by it.
    package enum MDNSDatagram {
        case notMDNS
        case mdns(DiscoveryMessage?)
    }

    /// Expires idle connections; called for every packet, since capture time advances with any.
    /// Checked once per capture second so that the sweep costs nothing per packet.
    package func sweepIdleConnections(at now: Timestamp) {
        guard now.seconds != lastIdleSweep else { return }
        lastIdleSweep = now.seconds
        reassembler.expireIdleConnections(at: now)
    }

    /// Delivers what reassembly still holds and closes every connection.
    package func finish() {
        reassembler.finish()
        let statistics = reassembler.statistics
        context.addLimitHits(.tcpConnections, statistics.connectionLimitHits)
        context.addLimitHits(.tcpBufferedBytesPerDirection, statistics.bufferedBytesPerDirectionLimitHits)
        context.addLimitHits(.tcpBufferedBytes, statistics.bufferedBytesLimitHits)
        context.addLimitHits(.tcpOutOfOrderSegments, statistics.outOfOrderSegmentsLimitHits)
    }
}
