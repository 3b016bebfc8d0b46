/// When a packet was captured, with nanosecond resolution (pcap gives micro- or nanoseconds).
public struct Timestamp: Hashable, Comparable, Sendable {
    public var seconds: Int64
    public var nanoseconds: UInt32

    public init(seconds: Int64, nanoseconds: UInt32) {
        precondition(nanoseconds < 1_000_000_000, "nanoseconds must be below one second")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Seconds since the Unix epoch as a floating-point number, for arithmetic and JSON.
    public var timeInterval: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// `later - earlier` in seconds.
    public static func - (later: Timestamp, earlier: Timestamp) -> Double {
        Double(later.seconds - earlier.seconds) + (Double(later.nanoseconds) - Double(earlier.nanoseconds)) / 1e9
    }
}

/// Where a packet sits in the input: the number a user types into Wireshark's "Go to packet"
/// and the time it was captured.
public struct PacketInfo: Hashable, Sendable {
    /// 1-based, counted across every input file in order, as Wireshark numbers frames.
    public var number: Int
    public var timestamp: Timestamp
    /// Bytes present in the capture (at most the snap length).
    public var capturedLength: Int
    /// Bytes the packet had on the wire.
    public var originalLength: Int

    public init(number: Int, timestamp: Timestamp, capturedLength: Int, originalLength: Int) {
        self.number = number
        self.timestamp = timestamp
        self.capturedLength = capturedLength
        self.originalLength = originalLength
    }
}
