import ArgumentParsing
import HAPAnalysis
import HAPJSON
import HTTP1

/// One bound of `AnalysisLimits`, settable with `--limit NAME=VALUE` (docs/cli.md, "Limits").
///
/// The names are the ones the analysis reports when a bound is reached (`tcp.connections`), so
/// a user who sees a limit reached can raise exactly that one.
struct LimitOption: Sendable {
    enum Unit: Sendable {
        /// Bytes; the value may end in `k`, `M` or `G` (powers of 1024).
        case bytes
        case count
        case seconds
    }

    let name: String
    let unit: Unit
    let help: String
    /// The smallest value that keeps the analysis meaningful.
    let minimum: Int
    let read: @Sendable (AnalysisLimits) -> Int
    let write: @Sendable (inout AnalysisLimits, Int) -> Void

    static let all: [LimitOption] = [
        LimitOption(name: "tcp.connections", unit: .count, help: "TCP connections tracked at once", minimum: 1,
                    read: { $0.tcp.maximumConnections }, write: { $0.tcp.maximumConnections = $1 }),
        LimitOption(name: "tcp.buffered-bytes-per-direction", unit: .bytes, help: "out-of-order bytes held per connection direction",
                    minimum: 0, read: { $0.tcp.maximumBufferedBytesPerDirection }, write: { $0.tcp.maximumBufferedBytesPerDirection = $1 }),
        LimitOption(name: "tcp.buffered-bytes", unit: .bytes, help: "out-of-order bytes held in all", minimum: 0,
                    read: { $0.tcp.maximumBufferedBytes }, write: { $0.tcp.maximumBufferedBytes = $1 }),
        LimitOption(name: "tcp.out-of-order-segments", unit: .count, help: "out-of-order ranges held per connection direction",
                    minimum: 1, read: { $0.tcp.maximumOutOfOrderSegmentsPerDirection },
                    write: { $0.tcp.maximumOutOfOrderSegmentsPerDirection = $1 }),
        LimitOption(name: "tcp.idle-timeout", unit: .seconds, help: "capture time after which a silent connection is closed",
                    minimum: 1, read: { Int($0.tcp.idleTimeout.components.seconds) }, write: { $0.tcp.idleTimeout = .seconds($1) }),
        LimitOption(name: "tcp.closed-retention", unit: .seconds, help: "capture time a closed connection is remembered",
                    minimum: 0, read: { Int($0.tcp.closedConnectionRetention.components.seconds) },
                    write: { $0.tcp.closedConnectionRetention = .seconds($1) }),
        LimitOption(name: "http.start-line", unit: .bytes, help: "longest HTTP start line", minimum: 16,
                    read: { $0.http.maxStartLineLength }, write: { $0.http = $0.http.with(startLine: $1) }),
        LimitOption(name: "http.header-block", unit: .bytes, help: "largest HTTP header block", minimum: 16,
                    read: { $0.http.maxHeaderBlockSize }, write: { $0.http = $0.http.with(headerBlock: $1) }),
        LimitOption(name: "http.headers", unit: .count, help: "most HTTP header fields", minimum: 0,
                    read: { $0.http.maxHeaderCount }, write: { $0.http = $0.http.with(headers: $1) }),
        LimitOption(name: "http.body", unit: .bytes, help: "largest HTTP body", minimum: 0,
                    read: { $0.http.maxBodySize }, write: { $0.http = $0.http.with(body: $1) }),
        LimitOption(name: "http.chunk", unit: .bytes, help: "largest chunk of a chunked body", minimum: 0,
                    read: { $0.http.maxChunkSize }, write: { $0.http = $0.http.with(chunk: $1) }),
        LimitOption(name: "http.chunk-line", unit: .bytes, help: "longest chunk-size line", minimum: 3,
                    read: { $0.http.maxChunkLineLength }, write: { $0.http = $0.http.with(chunkLine: $1) }),
        LimitOption(name: "json.document", unit: .bytes, help: "largest JSON body", minimum: 2,
                    read: { $0.json.maximumDocumentSize }, write: { $0.json.maximumDocumentSize = $1 }),
        LimitOption(name: "json.depth", unit: .count, help: "deepest JSON nesting (at most \(JSONLimits.supportedDepth))",
                    minimum: 1, read: { $0.json.maximumDepth }, write: { $0.json.maximumDepth = $1 }),
        LimitOption(name: "json.values", unit: .count, help: "most values in one JSON body", minimum: 1,
                    read: { $0.json.maximumValueCount }, write: { $0.json.maximumValueCount = $1 }),
        LimitOption(name: "json.string", unit: .bytes, help: "longest JSON string", minimum: 0,
                    read: { $0.json.maximumStringLength }, write: { $0.json.maximumStringLength = $1 }),
        LimitOption(name: "json.number", unit: .bytes, help: "longest JSON number literal", minimum: 1,
                    read: { $0.json.maximumNumberLength }, write: { $0.json.maximumNumberLength = $1 }),
        LimitOption(name: "frame.length", unit: .bytes, help: "largest HAP frame buffered (HAP allows 1024)", minimum: 1024,
                    read: { $0.maximumFrameLength }, write: { $0.maximumFrameLength = $1 }),
        LimitOption(name: "http.pending-requests", unit: .count, help: "requests of one connection waiting for responses",
                    minimum: 1, read: { $0.maximumPendingRequests }, write: { $0.maximumPendingRequests = $1 }),
        LimitOption(name: "mdns.instances", unit: .count, help: "mDNS service instances and accessory endpoints remembered",
                    minimum: 1, read: { $0.maximumMDNSInstances }, write: { $0.maximumMDNSInstances = $1 }),
        LimitOption(name: "ip.fragment-datagrams", unit: .count, help: "IP datagrams waiting for fragments at once",
                    minimum: 1, read: { $0.fragments.maximumPendingDatagrams }, write: { $0.fragments.maximumPendingDatagrams = $1 }),
        LimitOption(name: "ip.fragment-bytes", unit: .bytes, help: "bytes of IP fragments held in all", minimum: 0,
                    read: { $0.fragments.maximumPendingBytes }, write: { $0.fragments.maximumPendingBytes = $1 }),
    ]

    /// Applies `NAME=VALUE` to `limits`.
    static func apply(_ argument: String, to limits: inout AnalysisLimits) throws(CommandFailure) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw CommandFailure("--limit takes NAME=VALUE, not '\(argument)' (see 'hapscope help limits')")
        }
        let name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        guard let option = all.first(where: { $0.name == name }) else {
            var message = "unknown limit '\(name)'"
            if let close = closest(to: name) { message += "; did you mean '\(close)'?" }
            throw CommandFailure(message + " (see 'hapscope help limits')")
        }
        guard let value = option.parse(text) else {
            throw CommandFailure("--limit \(name) takes \(option.unitDescription), not '\(text)'")
        }
        guard value >= option.minimum else {
            throw CommandFailure("--limit \(name) must be at least \(option.minimum), not \(value)")
        }
        option.write(&limits, value)
    }

    private static func closest(to name: String) -> String? {
        ArgumentParser.closest(to: name, among: all.map(\.name))
    }

    /// The value in its unit: `1048576`, `64M`, `7200`.
    func parse(_ text: String) -> Int? {
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

    var unitDescription: String {
        switch unit {
        case .bytes: "a byte count (suffix k, M or G for KiB, MiB, GiB)"
        case .count: "a whole number"
        case .seconds: "a number of seconds"
        }
    }

    /// The default as help shows it: `1M`, `128`, `7200 s`.
    func describe(_ value: Int) -> String {
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

    /// The table `--help` and `hapscope help limits` print: name, default and meaning.
    static var helpTable: String {
        let defaults = AnalysisLimits()
        let values = all.map { $0.describe($0.read(defaults)) }
        let nameWidth = all.map(\.name.count).max() ?? 0
        let valueWidth = values.map(\.count).max() ?? 0
        return zip(all, values).map { option, value in
            "  " + option.name + String(repeating: " ", count: nameWidth - option.name.count + 2)
                + value + String(repeating: " ", count: valueWidth - value.count + 2) + option.help
        }.joined(separator: "\n")
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
