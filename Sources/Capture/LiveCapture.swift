import CPcap
import Packets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
/// Packets are numbered from 1 in arrival order; the kernel applies the filter, so numbers
/// count the packets that passed it.
///
/// `next()` blocks until a packet arrives. It returns nil once the capture ends: after
/// `stopper.stop()` (from another thread or a signal handler), after `packetLimit` packets,
/// or once `durationLimit` has passed since the capture started; `endReason` says which.
///
/// The handle reads in non-blocking mode and the loop waits in `poll(2)` on libpcap's
/// selectable descriptor and the stop request, as libpcap's documentation advises for a
/// bounded wait: a blocking read on Linux (libpcap 1.10) keeps waiting through its timeout
/// while no packet arrives, so neither a duration nor a stop could end it.
public final class LiveCapture {
    public struct Configuration: Hashable, Sendable {
        /// Bytes kept of each packet (`pcap_set_snaplen`).
        public var snapLength: Int
        /// Whether to receive frames not addressed to this host (`pcap_set_promisc`).
        public var promiscuous: Bool
        /// Hand packets over as they arrive rather than in batches (`pcap_set_immediate_mode`).
        public var immediateMode: Bool
        /// How long the kernel may hold packets before handing them over when not in
        /// immediate mode (`pcap_set_timeout`).
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
    private let stopRequest: StopRequest
    /// The descriptor `poll(2)` watches for packets (`pcap_get_selectable_fd`).
    private let selectableDescriptor: Int32
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
        let (nonblockingStatus, nonblockingError) = PcapHandle.withErrorBuffer { pcap_setnonblock(pointer, 1, $0) }
        let selectableDescriptor = pcap_get_selectable_fd(pointer)
        guard nonblockingStatus == 0, selectableDescriptor >= 0 else {
            throw .liveCaptureFailed(
                interface: interface,
                reason: nonblockingStatus == 0 ? "the capture has no descriptor to wait on" : nonblockingError)
        }
        let stopRequest: StopRequest
        do {
            stopRequest = try StopRequest()
        } catch {
            throw .liveCaptureFailed(interface: interface, reason: "cannot create the stop pipe: \(error.description)")
        }

        self.interface = interface
        self.configuration = configuration
        self.handle = handle
        self.linkType = handle.linkType
        self.warnings = warnings
        self.stopRequest = stopRequest
        self.selectableDescriptor = selectableDescriptor
        self.stopper = CaptureStopper(request: stopRequest)
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
            if stopRequest.isRaised {
                endReason = .stopped
                return nil
            }
            if let deadline, ContinuousClock.now >= deadline {
                endReason = .durationLimitReached
                return nil
            }
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap_next_ex(handle.pointer, &header, &data)
            if status == 1, let header, let data {
                packetsRead += 1
                return CapturedPacket(
                    header: header, data: data, number: packetsRead, hasNanosecondTimestamps: hasNanosecondTimestamps,
                    linkType: linkType, fileIndex: 0)
            }
            guard status == 0 else {
                throw .liveCaptureFailed(interface: interface, reason: handle.errorText)
            }
            try waitForTraffic()
        }
    }

    /// Waits until packets may be readable, the stop request is raised, or the deadline passes.
    private func waitForTraffic() throws(CaptureError) {
        // Rounded up, so that the wait does not end a moment before the deadline and spin.
        let timeoutMilliseconds = deadline.map { max(0, (ContinuousClock.now.duration(to: $0) + .microseconds(999)).clampedMilliseconds) } ?? -1
        let result = withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
            descriptors.initializeElement(at: 0, to: pollfd(fd: selectableDescriptor, events: Int16(POLLIN), revents: 0))
            descriptors.initializeElement(at: 1, to: pollfd(fd: stopRequest.readDescriptor, events: Int16(POLLIN), revents: 0))
            return poll(descriptors.baseAddress, nfds_t(descriptors.count), timeoutMilliseconds)
        }
        guard result >= 0 || errno == EINTR else {
            throw .liveCaptureFailed(interface: interface, reason: CFile.Failure(code: errno).description)
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

/// Ends a live capture: `next()` returns nil, with `LiveCapture.EndReason.stopped`, waking
/// it if it is waiting for traffic.
///
/// `stop()` is safe from any thread and from a signal handler: it sets an atomic flag and
/// writes one byte to a pipe. A stopper keeps what it needs alive, so one kept in a global
/// for a signal handler stays valid after the capture is gone.
public struct CaptureStopper: Sendable {
    private let request: StopRequest

    init(request: StopRequest) {
        self.request = request
    }

    public func stop() { request.raise() }
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
