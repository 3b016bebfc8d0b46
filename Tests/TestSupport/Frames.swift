/// Hand-built link, IP, TCP and UDP headers, every field a parameter so that a test can break
/// exactly one. Checksums are left zero: hapscope does not require them.
public enum Frames {
    public static let controllerIPv4: [UInt8] = [10, 77, 0, 1]
    public static let accessoryIPv4: [UInt8] = [10, 77, 0, 2]
    public static let controllerMAC: [UInt8] = [0x02, 0, 0, 0, 0, 0x01]
    public static let accessoryMAC: [UInt8] = [0x02, 0, 0, 0, 0, 0x02]
    public static let mdnsIPv4: [UInt8] = [224, 0, 0, 251]

    /// An Ethernet II frame.
    public static func ethernet(_ payload: [UInt8], etherType: UInt16 = 0x0800, from source: [UInt8] = controllerMAC) -> [UInt8] {
        (source == controllerMAC ? accessoryMAC : controllerMAC) + source + bigEndian(etherType) + payload
    }

    /// An IPv4 packet. `headerLength` (in bytes) and `totalLength` override the computed fields;
    /// `fragmentOffset` is in bytes, a multiple of 8.
    public static func ipv4(
        _ payload: [UInt8], protocol ipProtocol: UInt8, source: [UInt8] = controllerIPv4, destination: [UInt8] = accessoryIPv4,
        identification: UInt16 = 1, moreFragments: Bool = false, fragmentOffset: Int = 0,
        headerLength: Int? = nil, totalLength: Int? = nil
    ) -> [UInt8] {
        let header = headerLength ?? 20
        let flags = UInt16(fragmentOffset / 8) | (moreFragments ? 0x2000 : 0)
        return [0x40 | UInt8(truncatingIfNeeded: header / 4), 0] + bigEndian(UInt16(totalLength ?? 20 + payload.count))
            + bigEndian(identification) + bigEndian(flags) + [64, ipProtocol, 0, 0] + source + destination + payload
    }

    /// A TCP segment; `dataOffset` (in bytes) overrides the 20-byte header length.
    public static func tcp(
        _ payload: [UInt8] = [], sourcePort: UInt16, destinationPort: UInt16, sequence: UInt32, acknowledgment: UInt32,
        flags: UInt8, dataOffset: Int? = nil
    ) -> [UInt8] {
        bigEndian(sourcePort) + bigEndian(destinationPort) + bigEndian(sequence) + bigEndian(acknowledgment)
            + [UInt8(truncatingIfNeeded: (dataOffset ?? 20) / 4) << 4, flags] + bigEndian(UInt16(65_535)) + [0, 0, 0, 0] + payload
    }

    /// A UDP datagram; `length` overrides the length field.
    public static func udp(_ payload: [UInt8], sourcePort: UInt16 = 5_353, destinationPort: UInt16 = 5_353, length: Int? = nil) -> [UInt8] {
        bigEndian(sourcePort) + bigEndian(destinationPort) + bigEndian(UInt16(truncatingIfNeeded: length ?? 8 + payload.count)) + [0, 0] + payload
    }

    /// An mDNS datagram from the accessory, as a whole Ethernet frame.
    public static func mdns(_ message: [UInt8]) -> [UInt8] {
        ethernet(ipv4(udp(message), protocol: 17, source: accessoryIPv4, destination: mdnsIPv4), from: accessoryMAC)
    }

    public static func bigEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}

/// TCP flag bytes (RFC 9293 §3.1).
public enum TCPFlag {
    public static let fin: UInt8 = 0x01
    public static let syn: UInt8 = 0x02
    public static let rst: UInt8 = 0x04
    public static let psh: UInt8 = 0x08
    public static let ack: UInt8 = 0x10
}

/// One TCP connection between the controller and the accessory, keeping both sequence numbers,
/// so that a test writes what is said and the conversation supplies correct TCP around it.
public struct TCPConversation: Sendable {
    public let controllerPort: UInt16
    public let accessoryPort: UInt16
    public private(set) var controllerSequence: UInt32
    public private(set) var accessorySequence: UInt32

    public init(controllerPort: UInt16 = 49_201, accessoryPort: UInt16 = 51_826, controllerISN: UInt32 = 1_000, accessoryISN: UInt32 = 9_000) {
        self.controllerPort = controllerPort
        self.accessoryPort = accessoryPort
        controllerSequence = controllerISN
        accessorySequence = accessoryISN
    }

    /// SYN, SYN-ACK, ACK.
    public mutating func handshake() -> [[UInt8]] {
        let syn = segment(fromController: true, flags: TCPFlag.syn, sequence: controllerSequence, acknowledgment: 0)
        let synAck = segment(fromController: false, flags: TCPFlag.syn | TCPFlag.ack, sequence: accessorySequence, acknowledgment: controllerSequence &+ 1)
        controllerSequence &+= 1
        accessorySequence &+= 1
        return [syn, synAck, segment(fromController: true, flags: TCPFlag.ack)]
    }

    /// The controller sends `bytes` in one segment.
    public mutating func controllerSends(_ bytes: [UInt8]) -> [UInt8] {
        defer { controllerSequence &+= UInt32(bytes.count) }
        return segment(fromController: true, flags: TCPFlag.ack | TCPFlag.psh, payload: bytes)
    }

    /// The accessory sends `bytes` in one segment.
    public mutating func accessorySends(_ bytes: [UInt8]) -> [UInt8] {
        defer { accessorySequence &+= UInt32(bytes.count) }
        return segment(fromController: false, flags: TCPFlag.ack | TCPFlag.psh, payload: bytes)
    }

    /// FIN from each side, then the last ACK.
    public mutating func close() -> [[UInt8]] {
        let controllerFIN = segment(fromController: true, flags: TCPFlag.fin | TCPFlag.ack)
        controllerSequence &+= 1
        let accessoryFIN = segment(fromController: false, flags: TCPFlag.fin | TCPFlag.ack)
        accessorySequence &+= 1
        return [controllerFIN, accessoryFIN, segment(fromController: true, flags: TCPFlag.ack)]
    }

    /// A whole Ethernet frame carrying one segment; sequence and acknowledgment default to the
    /// conversation's, and `payload` does not advance it.
    public func segment(
        fromController: Bool, flags: UInt8, payload: [UInt8] = [], sequence: UInt32? = nil, acknowledgment: UInt32? = nil,
        dataOffset: Int? = nil, ipHeaderLength: Int? = nil, ipTotalLength: Int? = nil
    ) -> [UInt8] {
        let tcp = Frames.tcp(
            payload, sourcePort: fromController ? controllerPort : accessoryPort,
            destinationPort: fromController ? accessoryPort : controllerPort,
            sequence: sequence ?? (fromController ? controllerSequence : accessorySequence),
            acknowledgment: acknowledgment ?? (fromController ? accessorySequence : controllerSequence),
            flags: flags, dataOffset: dataOffset)
        let ip = Frames.ipv4(
            tcp, protocol: 6, source: fromController ? Frames.controllerIPv4 : Frames.accessoryIPv4,
            destination: fromController ? Frames.accessoryIPv4 : Frames.controllerIPv4,
            headerLength: ipHeaderLength, totalLength: ipTotalLength)
        return Frames.ethernet(ip, from: fromController ? Frames.controllerMAC : Frames.accessoryMAC)
    }
}
