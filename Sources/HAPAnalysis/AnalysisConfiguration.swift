import HAPJSON
import HTTP1
import Packets
import TCPReassembly

/// What the user asked the analysis to use and to bound.
public struct AnalysisConfiguration: Sendable {
    public var keyLog: KeyLog
    /// The accessory's setup code, when the user knows it (checked against HAP's forbidden codes
    /// by the audit).
    public var setupCode: String?
    /// The 4-character setup ID, to check advertised setup hashes.
    public var setupID: String?
    public var limits: AnalysisLimits
    /// Whether session keys may appear in events (`--show-keys`). Off by default, so that no
    /// report can print a secret by accident.
    public var revealsSessionKeys: Bool

    public init(
        keyLog: KeyLog = KeyLog(), setupCode: String? = nil, setupID: String? = nil,
        limits: AnalysisLimits = AnalysisLimits(), revealsSessionKeys: Bool = false
    ) {
        self.keyLog = keyLog
        self.setupCode = setupCode
        self.setupID = setupID
        self.limits = limits
        self.revealsSessionKeys = revealsSessionKeys
    }
}

/// Bounds on everything wire data can make hapscope hold, with safe defaults. Each is settable
/// from the command line (`--limit NAME=VALUE`) and reported when reached.
public struct AnalysisLimits: Sendable {
    public var tcp = TCPReassemblyLimits()
    public var http = HTTPLimits()
    public var json = JSONLimits()
    public var fragments = FragmentReassemblyLimits()
    /// The largest HAP frame hapscope buffers (HAP allows 1024; larger ones are decoded and flagged).
    public var maximumFrameLength = 65535
    /// Requests of one connection waiting for their responses; beyond it the oldest is forgotten
    /// (its response then cannot be matched).
    public var maximumPendingRequests = 1024
    /// Service instances and accessory endpoints remembered from mDNS; beyond it the oldest are
    /// forgotten, so a flood of made-up advertisements cannot grow memory.
    public var maximumMDNSInstances = 4096

    public init() {}
}
