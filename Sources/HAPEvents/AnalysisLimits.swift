import HAPJSON
import HTTP1
import Packets
import TCPReassembly
import WireParsing

extension LimitName {
    public static let frameLength = LimitName("frame.length")
    public static let frameCounterSearch = LimitName("frame.counter-search")
    public static let frameJoinChecks = LimitName("frame.join-checks")
    public static let httpPendingRequests = LimitName("http.pending-requests")
    public static let mdnsInstances = LimitName("mdns.instances")
    public static let coapSessions = LimitName("coap.sessions")
    public static let coapCounterSearch = LimitName("coap.counter-search")
    public static let coapBlockwiseBody = LimitName("coap.blockwise-body")
    public static let coapPendingRequests = LimitName("coap.pending-requests")
    public static let coapHeldBytes = LimitName("coap.held-bytes")
}

/// Bounds on everything wire data can make the analysis hold, with safe defaults. Each is
/// settable from the command line (`--limit NAME=VALUE`, see `AnalysisLimit.all`) and reported
/// by its name when reached.
public struct AnalysisLimits: Sendable {
    public var tcp = TCPReassemblyLimits()
    public var http = HTTPLimits()
    public var json = JSONLimits()
    public var fragments = FragmentReassemblyLimits()
    public var ble = BLELimits()
    /// The largest HAP frame hapscope buffers (HAP allows 1024; larger ones are decoded and flagged).
    public var maximumFrameLength = 65535
    /// Nonce counters tried per key-log key when joining a session already encrypted when the
    /// capture started: 2^20 covers a session that sent a frame a second for twelve days.
    public var maximumCounterSearch = 1 << 20
    /// Tag checks spent on one direction of such a session in all, over every key-log key and
    /// guessed frame boundary: 2^22 is four whole searches, and keeps a key log of many sessions
    /// from costing keys × guesses × `maximumCounterSearch` on a connection none of them opens.
    public var maximumJoinChecks = 1 << 22
    /// Requests of one connection waiting for their responses; beyond it the oldest is forgotten
    /// (its response then cannot be matched).
    public var maximumPendingRequests = 1024
    /// Service instances and accessory endpoints remembered from mDNS; beyond it the oldest are
    /// forgotten, so a flood of made-up advertisements cannot grow memory.
    public var maximumMDNSInstances = 4096
    /// HAP over CoAP: controller endpoints followed at once (a session per controller port);
    /// beyond it the longest silent one is closed.
    public var maximumCoAPSessions = 256
    /// HAP over CoAP: counter values tried on each side of the expected one when a body does not
    /// open (aiohomekit's own recovery tries 5 each way, then 0).
    public var maximumCoAPCounterDrift = 64
    /// HAP over CoAP: the largest body joined from Block1 or Block2 blocks (RFC 7959).
    public var maximumCoAPBlockwiseBody = 1 << 20
    /// HAP over CoAP: confirmable requests of one session waiting for their responses.
    public var maximumCoAPPendingRequests = 64
    /// HAP over CoAP: bytes held across every session at once (block-wise bodies being joined,
    /// requests waiting for responses, the de-duplication windows). The per-session bounds alone
    /// allow `coap.sessions` × 2 transfers × `coap.blockwise-body`; beyond this budget the
    /// session that grew drops its block-wise bodies.
    public var maximumCoAPHeldBytes = 16 << 20

    public init() {}
}
