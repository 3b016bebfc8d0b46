import CPcap
import Packets

/// Captures packets from a network interface as they arrive.
///
/// ```swift
/// var configuration = LiveCapture.Configuration()
/// configuration.filter = "udp port 5353 or tcp"
/// configuration.durationLimit = .seconds(60)
/// let capture = try LiveCapture(interface: "eth0", configuration: configuration)
/// while let packet = try capture.next() { … }
/// ```
///
/// `next()` blocks until a packet arrives. It returns nil once the capture ends: after
/// `stopper.stop()` (from another thread or a signal handler), after `packetLimit` packets,
/// or once `durationLimit` has passed since the capture started; `endReason` says which.
public final class LiveCapture {
    public struct Configuration: Hashable, Sendable {
        /// Bytes kept of each packet (`pcap_set_snaplen`).
        public var snapLength: Int
        /// Whether to receive frames not addressed to this host (`pcap_set_promisc`).
        public var promiscuous: Bool
        /// Hand packets over as they arrive rather than in batches (`pcap_set_immediate_mode`).
        public var immediateMode: Bool
        /// How long the kernel may hold packets before waking the reader (`pcap_set_timeout`);
        /// also how often the duration limit and a stop are looked at without traffic.
        public var bufferTimeout: Duration
        /// A BPF expression in libpcap's syntax (`pcap-filter(7)`).
        public var filter: String?
        /// End after this many packets (`--count`).
        public var packetLimit: Int?
        /// End this long after the capture started (`--duration`).
        public var durationLimit: Duration?

        public init(
            snapLength: Int = 262_144, promiscuous: Bool = false, immediateMode: Bool = true,
            bufferTimeout: Duration = .milliseconds(100), filter: String? = nil, packetLimit: Int? = nil,
            durationLimit: Duration? = nil
        ) {
            self.snapLength = snapLength
            self.promiscuous = promiscuous
            self.immediateMode = immediateMode
            self.bufferTimeout = bufferTimeout
            self.filter = filter
            self.packetLimit = packetLimit
            self.durationLimit = durationLimit
        }
    }

    /// Why `next()` returned nil.
    public enum EndReason: Hashable, Sendable {
        case stopped
        case packetLimitReached
        case durationLimitReached
    }

    public let interface: String
    public let configuration: Configuration
    public let linkType: LinkType
    /// What `pcap_activate` warned about, such as promiscuous mode not being supported.
    public let warnings: [String]
    /// Ends the capture from another thread or a signal handler.
    public let stopper: CaptureStopper
    public private(set) var packetsRead = 0
    public private(set) var endReason: EndReason?

    private let handle: PcapHandle
    private let hasNanosecondTimestamps: Bool
    private let deadline: ContinuousClock.Instant?

    /// Opens and activates `interface` (`pcap_create`, then the settings of `configuration`,
    /// then `pcap_activate`) and installs the filter. The duration limit counts from here.
    public init(interface: String, configuration: Configuration = Configuration()) throws(CaptureError) {
        let (created, createError) = PcapHandle.withErrorBuffer { pcap_create(interface, $0) }
        guard let pointer = created else { throw .liveCaptureFailed(interface: interface, reason: createError) }
        let handle = PcapHandle(pointer)
        pcap_set_snaplen(pointer, Int32(clamping: configuration.snapLength))
        pcap_set_promisc(pointer, configuration.promiscuous ? 1 : 0)
        pcap_set_immediate_mode(pointer, configuration.immediateMode ? 1 : 0)
        pcap_set_timeout(pointer, configuration.bufferTimeout.clampedMilliseconds)
        // Nanoseconds where the system offers them; microseconds otherwise (then converted).
        _ = pcap_set_tstamp_precision(pointer, Int32(PCAP_TSTAMP_PRECISION_NANO))

        let status = pcap_activate(pointer)
        if status < 0 {
            let detail = handle.errorText
            switch status {
            case PCAP_ERROR_PERM_DENIED, PCAP_ERROR_PROMISC_PERM_DENIED:
                throw .permissionDenied(interface: interface, reason: detail.isEmpty ? "pcap_activate refused" : detail)
            case PCAP_ERROR_NO_SUCH_DEVICE:
                throw .noSuchDevice(interface: interface, reason: detail)
            case PCAP_ERROR_IFACE_NOT_UP:
                throw .interfaceNotUp(interface: interface)
            default:
                throw .liveCaptureFailed(interface: interface, reason: detail.isEmpty ? String(cString: pcap_statustostr(status)) : detail)
            }
        }
        var warnings: [String] = []
        if status > 0 {
            // PCAP_WARNING carries its text in pcap_geterr; the specific warnings have none.
            warnings.append(status == PCAP_WARNING ? handle.errorText : String(cString: pcap_statustostr(status)))
        }
        if let filter = configuration.filter {
            var netmask = PCAP_NETMASK_UNKNOWN
            var network: bpf_u_int32 = 0
            _ = PcapHandle.withErrorBuffer { errorBuffer in
                if pcap_lookupnet(interface, &network, &netmask, errorBuffer) != 0 { netmask = PCAP_NETMASK_UNKNOWN }
            }
            try handle.setFilter(filter, netmask: netmask)
        }

        self.interface = interface
        self.configuration = configuration
        self.handle = handle
        self.linkType = handle.linkType
        self.warnings = warnings
        self.stopper = CaptureStopper(handle: handle)
        self.hasNanosecondTimestamps = handle.hasNanosecondTimestamps
        self.deadline = configuration.durationLimit.map { ContinuousClock.now + $0 }
    }

    /// The next packet, or nil once the capture has ended (see `endReason`).
    ///
    /// Blocks until a packet arrives, the capture is stopped, or the duration limit passes.
    /// The packet's bytes are valid until the next call.
    public func next() throws(CaptureError) -> CapturedPacket? {
        guard endReason == nil else { return nil }
        if let packetLimit = configuration.packetLimit, packetsRead >= packetLimit {
            endReason = .packetLimitReached
            return nil
        }
        while true {
            if let deadline, ContinuousClock.now >= deadline {
                endReason = .durationLimitReached
                return nil
            }
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap_next_ex(handle.pointer, &header, &data)
            if status == 1, let header, let data {
                packetsRead += 1
                let capturedLength = Int(header.pointee.caplen)
                let info = PacketInfo(
                    number: packetsRead,
                    timestamp: Timestamp(
                        pcapSeconds: header.pointee.ts.tv_sec, fraction: header.pointee.ts.tv_usec,
                        isNanoseconds: hasNanosecondTimestamps),
                    capturedLength: capturedLength,
                    originalLength: Int(header.pointee.len))
                return CapturedPacket(
                    info: info, bytes: UnsafeRawBufferPointer(start: data, count: capturedLength), linkType: linkType, fileIndex: 0)
            }
            switch status {
            case 0:
                continue  // The buffer timeout passed without a packet: look at the clock again.
            case PCAP_ERROR_BREAK:
                endReason = .stopped
                return nil
            default:
                throw .liveCaptureFailed(interface: interface, reason: handle.errorText)
            }
        }
    }

    /// The kernel's counters for this capture (`pcap_stats`).
    public func statistics() throws(CaptureError) -> LiveCaptureStatistics {
        var counters = pcap_stat()
        guard pcap_stats(handle.pointer, &counters) == 0 else {
            throw .liveCaptureFailed(interface: interface, reason: handle.errorText)
        }
        return LiveCaptureStatistics(
            received: Int(counters.ps_recv), droppedForLackOfBuffer: Int(counters.ps_drop),
            droppedByInterface: Int(counters.ps_ifdrop))
    }
}

/// Ends a live capture: `next()` returns nil, with `LiveCapture.EndReason.stopped`.
///
/// `stop()` only calls `pcap_breakloop`, which libpcap documents as safe from another thread
/// and from a signal handler; a stopper keeps the capture's handle alive, so it stays valid
/// even if kept in a global for a signal handler.
public struct CaptureStopper: Sendable {
    private let handle: PcapHandle

    init(handle: PcapHandle) {
        self.handle = handle
    }

    public func stop() { handle.breakLoop() }
}

/// Counters libpcap keeps for a live capture. On Linux `received` counts packets that passed
/// the filter, and drops count packets the kernel had no buffer room for.
public struct LiveCaptureStatistics: Hashable, Sendable {
    public var received: Int
    public var droppedForLackOfBuffer: Int
    public var droppedByInterface: Int

    public init(received: Int, droppedForLackOfBuffer: Int, droppedByInterface: Int) {
        self.received = received
        self.droppedForLackOfBuffer = droppedForLackOfBuffer
        self.droppedByInterface = droppedByInterface
    }
}

extension Duration {
    /// Whole milliseconds, clamped to what a C `int` holds: libpcap's unit for timeouts.
    var clampedMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return Int32(clamping: milliseconds + attoseconds / 1_000_000_000_000_000)
    }
}
