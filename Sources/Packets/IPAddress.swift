/// An IPv4 or IPv6 address, stored by value so that flow tables hash it without allocating.
public enum IPAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// In host byte order: 127.0.0.1 is 0x7F00_0001.
    case v4(UInt32)
    /// The 128 bits split in two, most significant half first.
    case v6(high: UInt64, low: UInt64)

    public var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
        case .v6(let high, let low):
            return Self.formatIPv6(groups: (0..<8).map { index in
                let half = index < 4 ? high : low
                return UInt16(truncatingIfNeeded: half >> (UInt64(3 - index % 4) * 16))
            })
        }
    }

    /// RFC 5952 text: lower-case hex, the longest run of two or more zero groups as `::`.
    private static func formatIPv6(groups: [UInt16]) -> String {
        var bestStart = -1, bestLength = 0, runStart = -1
        for index in 0...groups.count {
            if index < groups.count, groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        if bestLength < 2 { bestStart = -1 }
        var parts: [String] = []
        var index = 0
        while index < groups.count {
            if index == bestStart {
                parts.append(index == 0 ? ":" : "")
                index += bestLength
                if index == groups.count { parts.append("") }
                continue
            }
            parts.append(String(groups[index], radix: 16))
            index += 1
        }
        return parts.joined(separator: ":")
    }

    /// Parses dotted IPv4 or RFC 4291 IPv6 text (with `::`, without zone or embedded IPv4).
    public init?(_ text: String) {
        if text.contains(":") {
            let halves = text.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            func groups(_ part: Substring) -> [UInt16]? {
                if part.isEmpty { return [] }
                var result: [UInt16] = []
                for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                    guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                    result.append(value)
                }
                return result
            }
            guard let head = groups(halves[0]) else { return nil }
            var all = head
            if halves.count == 2 {
                guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
                all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
            }
            guard all.count == 8 else { return nil }
            let high = all[0..<4].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
            let low = all[4..<8].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
            self = .v6(high: high, low: low)
        } else {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var value: UInt32 = 0
            for part in parts {
                guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let octet = UInt8(part) else { return nil }
                value = value << 8 | UInt32(octet)
            }
            self = .v4(value)
        }
    }

    public var isLoopback: Bool {
        switch self {
        case .v4(let value): value >> 24 == 127
        case .v6(let high, let low): high == 0 && low == 1
        }
    }
}

/// One end of a transport connection.
public struct Endpoint: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var address: IPAddress
    public var port: UInt16

    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `192.0.2.1:51826` or `[::1]:51826`, as tshark and browsers write them.
    public var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }

    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}
