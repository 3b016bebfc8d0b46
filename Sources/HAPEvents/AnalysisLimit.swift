import HTTP1
import WireParsing

/// One bound of `AnalysisLimits`: its name, unit and meaning, and how to read and set it. The
/// table `all` is the one registry the analysis, `--limit`, `--help` and the reports share.
public struct AnalysisLimit: Sendable {
    public enum Unit: Sendable {
        /// Bytes; a value may end in `k`, `M` or `G` (powers of 1024).
        case bytes
        case count
        case seconds
    }

    public let name: LimitName
    public let unit: Unit
    public let help: String
    /// The smallest value that keeps the analysis meaningful.
    public let minimum: Int
    private let read: @Sendable (AnalysisLimits) -> Int
    private let write: @Sendable (inout AnalysisLimits, Int) -> Void

    private init(
        _ name: LimitName, _ unit: Unit, _ help: String, minimum: Int,
        read: @escaping @Sendable (AnalysisLimits) -> Int, write: @escaping @Sendable (inout AnalysisLimits, Int) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.help = help
        self.minimum = minimum
        self.read = read
        self.write = write
    }

    public static let all: [AnalysisLimit] = [
        AnalysisLimit(.tcpConnections, .count, "TCP connections tracked at once", minimum: 1,
                      read: { $0.tcp.maximumConnections }, write: { $0.tcp.maximumConnections = $1 }),
        AnalysisLimit(.tcpBufferedBytesPerDirection, .bytes, "out-of-order bytes held per connection direction", minimum: 0,
                      read: { $0.tcp.maximumBufferedBytesPerDirection }, write: { $0.tcp.maximumBufferedBytesPerDirection = $1 }),
        AnalysisLimit(.tcpBufferedBytes, .bytes, "out-of-order bytes held in all", minimum: 0,
                      read: { $0.tcp.maximumBufferedBytes }, write: { $0.tcp.maximumBufferedBytes = $1 }),
        AnalysisLimit(.tcpOutOfOrderSegments, .count, "out-of-order ranges held per connection direction", minimum: 1,
                      read: { $0.tcp.maximumOutOfOrderSegmentsPerDirection },
                      write: { $0.tcp.maximumOutOfOrderSegmentsPerDirection = $1 }),
        AnalysisLimit(.tcpIdleTimeout, .seconds, "capture time after which a silent connection is closed", minimum: 1,
                      read: { Int($0.tcp.idleTimeout.components.seconds) }, write: { $0.tcp.idleTimeout = .seconds($1) }),
        AnalysisLimit(.tcpClosedRetention, .seconds, "capture time a closed connection is remembered", minimum: 0,
                      read: { Int($0.tcp.closedConnectionRetention.components.seconds) },
                      write: { $0.tcp.closedConnectionRetention = .seconds($1) }),
        AnalysisLimit(.httpStartLine, .bytes, "longest HTTP start line", minimum: 16,
                      read: { $0.http.maxStartLineLength }, write: { $0.http = $0.http.with(startLine: $1) }),
        AnalysisLimit(.httpHeaderBlock, .bytes, "largest HTTP header block", minimum: 16,
                      read: { $0.http.maxHeaderBlockSize }, write: { $0.http = $0.http.with(headerBlock: $1) }),
        AnalysisLimit(.httpHeaders, .count, "most HTTP header fields", minimum: 0,
                      read: { $0.http.maxHeaderCount }, write: { $0.http = $0.http.with(headers: $1) }),
        AnalysisLimit(.httpBody, .bytes, "largest HTTP body", minimum: 0,
                      read: { $0.http.maxBodySize }, write: { $0.http = $0.http.with(body: $1) }),
        AnalysisLimit(.httpChunk, .bytes, "largest chunk of a chunked body", minimum: 0,
                      read: { $0.http.maxChunkSize }, write: { $0.http = $0.http.with(chunk: $1) }),
        AnalysisLimit(.httpChunkLine, .bytes, "longest chunk-size line", minimum: 3,
                      read: { $0.http.maxChunkLineLength }, write: { $0.http = $0.http.with(chunkLine: $1) }),
        AnalysisLimit(.jsonDocument, .bytes, "largest JSON body", minimum: 2,
                      read: { $0.json.maximumDocumentSize }, write: { $0.json.maximumDocumentSize = $1 }),
        AnalysisLimit(.jsonDepth, .count, "deepest JSON nesting (at most 1024)", minimum: 1,
                      read: { $0.json.maximumDepth }, write: { $0.json.maximumDepth = $1 }),
        AnalysisLimit(.jsonValues, .count, "most values in one JSON body", minimum: 1,
                      read: { $0.json.maximumValueCount }, write: { $0.json.maximumValueCount = $1 }),
        AnalysisLimit(.jsonString, .bytes, "longest JSON string", minimum: 0,
                      read: { $0.json.maximumStringLength }, write: { $0.json.maximumStringLength = $1 }),
        AnalysisLimit(.jsonNumber, .bytes, "longest JSON number literal", minimum: 1,
                      read: { $0.json.maximumNumberLength }, write: { $0.json.maximumNumberLength = $1 }),
        AnalysisLimit(.frameLength, .bytes, "largest HAP frame buffered (HAP allows 1024)", minimum: 1024,
                      read: { $0.maximumFrameLength }, write: { $0.maximumFrameLength = $1 }),
        AnalysisLimit(.frameCounterSearch, .count, "nonce counters tried per key when joining a session the capture began inside", minimum: 1,
                      read: { $0.maximumCounterSearch }, write: { $0.maximumCounterSearch = $1 }),
        AnalysisLimit(.frameJoinChecks, .count, "tag checks spent in all on one direction of a session the capture began inside", minimum: 1,
                      read: { $0.maximumJoinChecks }, write: { $0.maximumJoinChecks = $1 }),
        AnalysisLimit(.httpPendingRequests, .count, "requests of one connection waiting for responses", minimum: 1,
                      read: { $0.maximumPendingRequests }, write: { $0.maximumPendingRequests = $1 }),
        AnalysisLimit(.mdnsInstances, .count, "mDNS service instances and accessory endpoints remembered", minimum: 1,
                      read: { $0.maximumMDNSInstances }, write: { $0.maximumMDNSInstances = $1 }),
        AnalysisLimit(.ipFragmentDatagrams, .count, "IP datagrams waiting for fragments at once", minimum: 1,
                      read: { $0.fragments.maximumPendingDatagrams }, write: { $0.fragments.maximumPendingDatagrams = $1 }),
        AnalysisLimit(.ipFragmentBytes, .bytes, "bytes of IP fragments held in all", minimum: 0,
                      read: { $0.fragments.maximumPendingBytes }, write: { $0.fragments.maximumPendingBytes = $1 }),
        AnalysisLimit(.ipFragmentsPerDatagram, .count, "fragments accepted for one IP datagram", minimum: 2,
                      read: { $0.fragments.maximumFragmentsPerDatagram },
                      write: { $0.fragments.maximumFragmentsPerDatagram = $1 }),
        AnalysisLimit(.coapSessions, .count, "HAP-over-CoAP controller endpoints followed at once", minimum: 1,
                      read: { $0.maximumCoAPSessions }, write: { $0.maximumCoAPSessions = $1 }),
        AnalysisLimit(.coapCounterSearch, .count, "HAP-over-CoAP nonce counters tried each side of the expected one", minimum: 0,
                      read: { $0.maximumCoAPCounterDrift }, write: { $0.maximumCoAPCounterDrift = $1 }),
        AnalysisLimit(.coapBlockwiseBody, .bytes, "largest HAP-over-CoAP body joined from blocks", minimum: 1024,
                      read: { $0.maximumCoAPBlockwiseBody }, write: { $0.maximumCoAPBlockwiseBody = $1 }),
        AnalysisLimit(.coapPendingRequests, .count, "HAP-over-CoAP requests of one session waiting for responses", minimum: 1,
                      read: { $0.maximumCoAPPendingRequests }, write: { $0.maximumCoAPPendingRequests = $1 }),
        AnalysisLimit(.coapHeldBytes, .bytes, "bytes HAP over CoAP holds across all sessions", minimum: 0,
                      read: { $0.maximumCoAPHeldBytes }, write: { $0.maximumCoAPHeldBytes = $1 }),
        AnalysisLimit(.bleConnections, .count, "Bluetooth LE connections tracked at once", minimum: 1,
                      read: { $0.ble.maximumConnections }, write: { $0.ble.maximumConnections = $1 }),
        AnalysisLimit(.bleL2CAPFrame, .bytes, "largest L2CAP frame joined from ACL fragments", minimum: 27,
                      read: { $0.ble.acl.maximumFrameLength }, write: { $0.ble.acl.maximumFrameLength = $1 }),
        AnalysisLimit(.bleL2CAPPending, .count, "L2CAP frames in reassembly at once", minimum: 1,
                      read: { $0.ble.acl.maximumPendingFrames }, write: { $0.ble.acl.maximumPendingFrames = $1 }),
        AnalysisLimit(.bleGATTValue, .bytes, "longest GATT value joined from long reads and writes", minimum: 512,
                      read: { $0.ble.maximumGATTValueLength }, write: { $0.ble.maximumGATTValueLength = $1 }),
        AnalysisLimit(.bleAttributes, .count, "GATT attributes remembered per Bluetooth LE connection", minimum: 16,
                      read: { $0.ble.maximumAttributes }, write: { $0.ble.maximumAttributes = $1 }),
        AnalysisLimit(.blePDUBody, .bytes, "largest HAP-BLE PDU body joined from fragments", minimum: 512,
                      read: { $0.ble.maximumPDUBodyLength }, write: { $0.ble.maximumPDUBodyLength = $1 }),
        AnalysisLimit(.bleAdvertisers, .count, "HomeKit Bluetooth LE advertisers remembered", minimum: 1,
                      read: { $0.ble.maximumAdvertisers }, write: { $0.ble.maximumAdvertisers = $1 }),
        AnalysisLimit(.bleBroadcastGSNSearch, .count, "GSNs tried to open an encrypted BLE notification", minimum: 2,
                      read: { $0.ble.broadcastGSNSearch }, write: { $0.ble.broadcastGSNSearch = $1 }),
    ]

    /// The bound named `name`, if there is one.
    public static func named(_ name: LimitName) -> AnalysisLimit? {
        all.first { $0.name == name }
    }

    /// The bound's value in `limits`.
    public func value(in limits: AnalysisLimits) -> Int { read(limits) }

    /// Sets the bound in `limits`; a value below `minimum` is raised to it.
    public func set(_ value: Int, in limits: inout AnalysisLimits) { write(&limits, max(value, minimum)) }

    /// A value in this bound's unit: `1048576`, `64M`, `7200`.
    public func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        var multiplier = 1
        if unit == .bytes, let last = digits.last {
            switch last {
            case "k", "K": multiplier = 1 << 10
            case "m", "M": multiplier = 1 << 20
            case "g", "G": multiplier = 1 << 30
            default: break
            }
            if multiplier > 1 { digits = digits.dropLast() }
        }
        guard let number = Int(digits), number >= 0 else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : value
    }

    /// What a value of this bound is, for error messages.
    public var unitDescription: String {
        switch unit {
        case .bytes: "a byte count (suffix k, M or G for KiB, MiB, GiB)"
        case .count: "a whole number"
        case .seconds: "a number of seconds"
        }
    }

    /// A value as `--help` shows it: `1M`, `128`, `7200 s`.
    public func describe(_ value: Int) -> String {
        switch unit {
        case .count: return "\(value)"
        case .seconds: return "\(value) s"
        case .bytes:
            for (suffix, shift) in [("G", 30), ("M", 20), ("k", 10)] where value >= 1 << shift && value % (1 << shift) == 0 {
                return "\(value >> shift)\(suffix)"
            }
            return "\(value)"
        }
    }
}

extension HTTPLimits {
    /// A copy with one bound changed: the HTTP module's limits are immutable values.
    func with(
        startLine: Int? = nil, headerBlock: Int? = nil, headers: Int? = nil, body: Int? = nil, chunk: Int? = nil,
        chunkLine: Int? = nil
    ) -> HTTPLimits {
        HTTPLimits(
            maxStartLineLength: startLine ?? maxStartLineLength, maxHeaderBlockSize: headerBlock ?? maxHeaderBlockSize,
            maxHeaderCount: headers ?? maxHeaderCount, maxBodySize: body ?? maxBodySize, maxChunkSize: chunk ?? maxChunkSize,
            maxChunkLineLength: chunkLine ?? maxChunkLineLength)
    }
}
