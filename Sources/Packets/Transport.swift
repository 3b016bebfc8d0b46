/// TCP header flags (RFC 9293 §3.1).
public struct TCPFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let fin = TCPFlags(rawValue: 0x01)
    public static let syn = TCPFlags(rawValue: 0x02)
    public static let rst = TCPFlags(rawValue: 0x04)
    public static let psh = TCPFlags(rawValue: 0x08)
    public static let ack = TCPFlags(rawValue: 0x10)
    public static let urg = TCPFlags(rawValue: 0x20)
    public static let ece = TCPFlags(rawValue: 0x40)
    public static let cwr = TCPFlags(rawValue: 0x80)
}

/// A decoded TCP segment.
///
/// `payload` points into the packet buffer (or an IP reassembly buffer) and is valid only for
/// the duration of the call that hands the segment over; whoever must keep bytes copies them.
public struct TCPSegment {
    public var packet: PacketInfo
    public var source: Endpoint
    public var destination: Endpoint
    public var sequenceNumber: UInt32
    public var acknowledgmentNumber: UInt32
    public var flags: TCPFlags
    public var window: UInt16
    public var payload: UnsafeRawBufferPointer
    /// Payload bytes the sender sent but the capture does not hold (snap length), which the
    /// reassembler must treat as a gap rather than as data.
    public var missingPayloadCount: Int
    /// Where the headers sit in the captured frame; nil when the segment was reassembled from
    /// IP fragments. Tools that rewrite packets (the decrypted-capture export) need it.
    public var frameLayout: FrameLayout?

    /// Offsets into the captured frame.
    public struct FrameLayout: Hashable, Sendable {
        public var networkHeaderOffset: Int
        public var transportHeaderOffset: Int
        public var payloadOffset: Int

        public init(networkHeaderOffset: Int, transportHeaderOffset: Int, payloadOffset: Int) {
            self.networkHeaderOffset = networkHeaderOffset
            self.transportHeaderOffset = transportHeaderOffset
            self.payloadOffset = payloadOffset
        }
    }

    public init(
        packet: PacketInfo, source: Endpoint, destination: Endpoint, sequenceNumber: UInt32,
        acknowledgmentNumber: UInt32, flags: TCPFlags, window: UInt16, payload: UnsafeRawBufferPointer,
        missingPayloadCount: Int = 0, frameLayout: FrameLayout? = nil
    ) {
        self.packet = packet
        self.source = source
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.acknowledgmentNumber = acknowledgmentNumber
        self.flags = flags
        self.window = window
        self.payload = payload
        self.missingPayloadCount = missingPayloadCount
        self.frameLayout = frameLayout
    }
}

/// A decoded UDP datagram; `payload` is valid only for the call that hands it over.
public struct UDPDatagram {
    public var packet: PacketInfo
    public var source: Endpoint
    public var destination: Endpoint
    public var payload: UnsafeRawBufferPointer
    /// Payload bytes the UDP length announces but the capture does not hold (snap length): a
    /// consumer should not parse a datagram with missing bytes as if it were whole.
    public var missingPayloadCount: Int

    public init(
        packet: PacketInfo, source: Endpoint, destination: Endpoint, payload: UnsafeRawBufferPointer,
        missingPayloadCount: Int = 0
    ) {
        self.packet = packet
        self.source = source
        self.destination = destination
        self.payload = payload
        self.missingPayloadCount = missingPayloadCount
    }
}
