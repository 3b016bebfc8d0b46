import Packets

/// Follows TCP connections through a capture and hands each direction's byte stream to a
/// delegate, in order, exactly once, with every stretch that was never captured reported as
/// an explicit gap.
///
/// Feed it every TCP segment in capture order with `process(_:)` and call `finish()` at the
/// end of the input. Capture timestamps drive idle expiry; a live capture with no traffic
/// can call `expireIdleConnections(at:)` from a timer. docs/reassembly.md describes how roles
/// are decided, the overlap policy, when gaps are declared, the limits and the statistics.
///
/// The in-order path copies nothing and allocates nothing: a segment that continues its
/// stream is handed to the delegate straight from the packet buffer. Only bytes that arrive
/// ahead of a hole are copied, to wait for it, within `TCPReassemblyLimits`.
///
/// The delegate is held `unowned`: it usually owns the reassembler, and must outlive it (the
/// reassembler traps if it does not). Delegate methods may read the connection and the
/// reassembler's `statistics`, and change `serverPorts`, but must not call `process`,
/// `finish` or `expireIdleConnections` from inside a callback.
public final class TCPReassembler<Delegate: TCPStreamDelegate> {
    public let limits: TCPReassemblyLimits
    public unowned let delegate: Delegate
    private let context: ReassemblyContext
    /// Changed in one access per call, during which the delegate is called. Swift's dynamic
    /// exclusivity check of that access (about a tenth of the cost of an in-order segment) is
    /// replaced by `isBusy`, which catches the one way to break exclusivity here: a delegate
    /// calling back into the reassembler.
    @exclusivity(unchecked) private var core: ReassemblyCore
    private var isBusy = false

    /// Connections are numbered 1, 2, … in the order of their first segment, unless
    /// `connectionIDs` numbers them: an analysis whose other transports draw from the same
    /// counter, so that every connection of a run has its own number.
    public init(limits: TCPReassemblyLimits = TCPReassemblyLimits(), delegate: Delegate, connectionIDs: (() -> Int)? = nil) {
        self.limits = limits
        self.delegate = delegate
        core = ReassemblyCore(limits: limits, delegate: delegate, connectionIDs: connectionIDs)
        context = core.context
    }

    public var statistics: TCPReassemblyStatistics { context.statistics }

    /// Ports known to be servers' ports: the first clue for guessing the roles of a connection
    /// first seen mid-stream (docs/reassembly.md lists the others). Add an accessory's port as
    /// soon as it is known, from its mDNS SRV record or from the user.
    public var serverPorts: Set<UInt16> {
        get { context.serverPorts }
        set { context.serverPorts = newValue }
    }

    /// Takes the next TCP segment of the capture.
    public func process(_ segment: TCPSegment) {
        withCore { $0.process(segment) }
    }

    /// Ends the input: delivers what can be delivered, reports the holes that remain as gaps,
    /// and closes every open connection with `.captureEnded`, in the order they were opened.
    public func finish() {
        withCore { $0.finish() }
    }

    /// Closes the open connections idle for longer than `limits.idleTimeout` at `now`, and
    /// forgets closed ones older than `limits.closedConnectionRetention`. `process` does this
    /// for every segment; call it from a timer when a live capture is quiet.
    public func expireIdleConnections(at now: Timestamp) {
        withCore { $0.expireIdleConnections(at: now.timeInterval) }
    }

    /// Runs `body` on the core with the delegate alive throughout (the core holds it
    /// unretained), refusing a call made from inside a delegate callback.
    private func withCore(_ body: (inout ReassemblyCore) -> Void) {
        precondition(!isBusy, "a TCPStreamDelegate must not call back into the TCPReassembler from a callback")
        isBusy = true
        withExtendedLifetime(delegate) { body(&core) }
        isBusy = false
    }
}
