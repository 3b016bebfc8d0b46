import Capture
import Packets

/// An IPv4 endpoint of the generated capture.
struct GeneratedEndpoint: Hashable, CustomStringConvertible {
    let address: UInt32
    let port: UInt16

    /// `10.0.1.10:51826`, as key logs and hapscope write endpoints.
    var description: String {
        "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF):\(port)"
    }
}

/// TCP header flags the generator sets (RFC 9293 §3.1).
struct TCPFlags: OptionSet {
    let rawValue: UInt8
    static let fin = TCPFlags(rawValue: 0x01)
    static let syn = TCPFlags(rawValue: 0x02)
    static let rst = TCPFlags(rawValue: 0x04)
    static let psh = TCPFlags(rawValue: 0x08)
    static let ack = TCPFlags(rawValue: 0x10)
}

/// Writes Ethernet II / IPv4 / TCP or UDP frames with correct checksums into a pcap file,
/// assembling each frame in one reused buffer and stamping it with the generator's clock; or,
/// for a capture of another link type, frames its caller assembled (`writeFrame`).
final class FrameWriter {
    static let ethernetHeaderLength = 14
    static let ipv4HeaderLength = 20
    static let tcpHeaderLength = 20
    static let udpHeaderLength = 8
    /// The largest TCP payload per segment on Ethernet: 1500 − 20 − 20 (RFC 9293 §3.7.1).
    static let maximumSegmentSize = 1460

    private let writer: PcapWriter
    private var frame: [UInt8]
    private var identification: UInt16 = 1
    /// The time of the next frame; advanced by the caller between frames.
    var clock: Timestamp
    private(set) var bytesWritten = 0
    private(set) var framesWritten = 0

    init(file: String, start: Timestamp, linkType: LinkType = .ethernet) throws(CaptureError) {
        writer = try PcapWriter(file: file, linkType: linkType, precision: .microseconds)
        frame = [UInt8](repeating: 0, count: Self.ethernetHeaderLength + Self.ipv4HeaderLength + Self.tcpHeaderLength + 65_535)
        clock = start
    }

    /// Moves the clock on by `microseconds`.
    func advance(microseconds: Int) {
        let total = Int64(clock.nanoseconds) + Int64(microseconds) * 1_000
        clock = Timestamp(seconds: clock.seconds + total / 1_000_000_000, nanoseconds: UInt32(total % 1_000_000_000))
    }

    func close() throws(CaptureError) {
        try writer.close()
    }

    /// One TCP segment carrying `payload` (at most one MSS; the caller cuts longer data).
    func writeTCP(
        from source: GeneratedEndpoint, to destination: GeneratedEndpoint, sequence: UInt32, acknowledgement: UInt32,
        flags: TCPFlags, payload: UnsafeRawBufferPointer
    ) {
        let transportLength = Self.tcpHeaderLength + payload.count
        let length = writeHeaders(from: source, to: destination, ipProtocol: 6, transportLength: transportLength)
        frame.withUnsafeMutableBytes { buffer in
            let tcp = UnsafeMutableRawBufferPointer(rebasing: buffer[(Self.ethernetHeaderLength + Self.ipv4HeaderLength)...])
            tcp.storeBytes(of: source.port.bigEndian, toByteOffset: 0, as: UInt16.self)
            tcp.storeBytes(of: destination.port.bigEndian, toByteOffset: 2, as: UInt16.self)
            tcp.storeBytes(of: sequence.bigEndian, toByteOffset: 4, as: UInt32.self)
            tcp.storeBytes(of: (flags.contains(.ack) ? acknowledgement : 0).bigEndian, toByteOffset: 8, as: UInt32.self)
            tcp[12] = UInt8(Self.tcpHeaderLength / 4) << 4
            tcp[13] = flags.rawValue
            tcp.storeBytes(of: UInt16(65_535).bigEndian, toByteOffset: 14, as: UInt16.self)
            tcp.storeBytes(of: UInt16(0), toByteOffset: 16, as: UInt16.self)
            tcp.storeBytes(of: UInt16(0), toByteOffset: 18, as: UInt16.self)
            if !payload.isEmpty {
                UnsafeMutableRawBufferPointer(rebasing: tcp[Self.tcpHeaderLength..<transportLength]).copyMemory(from: payload)
            }
            let checksum = Self.transportChecksum(
                UnsafeRawBufferPointer(rebasing: tcp[..<transportLength]), ipProtocol: 6, source: source, destination: destination)
            tcp.storeBytes(of: checksum.bigEndian, toByteOffset: 16, as: UInt16.self)
        }
        emit(length)
    }

    /// One UDP datagram carrying `payload`, to a unicast or multicast destination.
    func writeUDP(from source: GeneratedEndpoint, to destination: GeneratedEndpoint, payload: [UInt8]) {
        let transportLength = Self.udpHeaderLength + payload.count
        let length = writeHeaders(from: source, to: destination, ipProtocol: 17, transportLength: transportLength)
        frame.withUnsafeMutableBytes { buffer in
            let udp = UnsafeMutableRawBufferPointer(rebasing: buffer[(Self.ethernetHeaderLength + Self.ipv4HeaderLength)...])
            udp.storeBytes(of: source.port.bigEndian, toByteOffset: 0, as: UInt16.self)
            udp.storeBytes(of: destination.port.bigEndian, toByteOffset: 2, as: UInt16.self)
            udp.storeBytes(of: UInt16(transportLength).bigEndian, toByteOffset: 4, as: UInt16.self)
            udp.storeBytes(of: UInt16(0), toByteOffset: 6, as: UInt16.self)
            payload.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: udp[Self.udpHeaderLength..<transportLength]).copyMemory(from: $0) }
            var checksum = Self.transportChecksum(
                UnsafeRawBufferPointer(rebasing: udp[..<transportLength]), ipProtocol: 17, source: source, destination: destination)
            // RFC 768: a computed zero is sent as all ones, zero meaning "no checksum".
            if checksum == 0 { checksum = 0xFFFF }
            udp.storeBytes(of: checksum.bigEndian, toByteOffset: 6, as: UInt16.self)
        }
        emit(length)
    }

    /// Ethernet and IPv4 headers for a transport payload of `transportLength` bytes; returns
    /// the frame length.
    private func writeHeaders(from source: GeneratedEndpoint, to destination: GeneratedEndpoint, ipProtocol: UInt8, transportLength: Int) -> Int {
        let ipLength = Self.ipv4HeaderLength + transportLength
        precondition(ipLength <= 65_535, "the generator cuts payloads to fit one IPv4 packet")
        let identification = self.identification
        self.identification &+= 1
        frame.withUnsafeMutableBytes { buffer in
            Self.storeMAC(of: destination.address, into: buffer, at: 0)
            Self.storeMAC(of: source.address, into: buffer, at: 6)
            buffer.storeBytes(of: UInt16(0x0800).bigEndian, toByteOffset: 12, as: UInt16.self)
            let ip = UnsafeMutableRawBufferPointer(rebasing: buffer[Self.ethernetHeaderLength..<(Self.ethernetHeaderLength + Self.ipv4HeaderLength)])
            ip[0] = 0x45
            ip[1] = 0
            ip.storeBytes(of: UInt16(ipLength).bigEndian, toByteOffset: 2, as: UInt16.self)
            ip.storeBytes(of: identification.bigEndian, toByteOffset: 4, as: UInt16.self)
            ip.storeBytes(of: UInt16(0x4000).bigEndian, toByteOffset: 6, as: UInt16.self)
            ip[8] = Self.isMulticast(destination.address) ? 255 : 64
            ip[9] = ipProtocol
            ip.storeBytes(of: UInt16(0), toByteOffset: 10, as: UInt16.self)
            ip.storeBytes(of: source.address.bigEndian, toByteOffset: 12, as: UInt32.self)
            ip.storeBytes(of: destination.address.bigEndian, toByteOffset: 16, as: UInt32.self)
            var sum = OnesComplementSum()
            sum.add(UnsafeRawBufferPointer(ip))
            ip.storeBytes(of: sum.checksum.bigEndian, toByteOffset: 10, as: UInt16.self)
        }
        return Self.ethernetHeaderLength + ipLength
    }

    /// One whole frame of the capture's link type, as the caller assembled it.
    func writeFrame(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writer.write($0, timestamp: clock) }
        bytesWritten += bytes.count + 16
        framesWritten += 1
    }

    private func emit(_ length: Int) {
        frame.withUnsafeBytes { writer.write(UnsafeRawBufferPointer(rebasing: $0[..<length]), timestamp: clock) }
        bytesWritten += length + 16
        framesWritten += 1
    }

    private static func transportChecksum(
        _ segment: UnsafeRawBufferPointer, ipProtocol: UInt8, source: GeneratedEndpoint, destination: GeneratedEndpoint
    ) -> UInt16 {
        // RFC 9293 §3.1: the pseudo-header of source, destination, protocol and length.
        var sum = OnesComplementSum()
        sum.add(word: UInt16(source.address >> 16))
        sum.add(word: UInt16(truncatingIfNeeded: source.address))
        sum.add(word: UInt16(destination.address >> 16))
        sum.add(word: UInt16(truncatingIfNeeded: destination.address))
        sum.add(word: UInt16(ipProtocol))
        sum.add(word: UInt16(segment.count))
        sum.add(segment)
        return sum.checksum
    }

    static func isMulticast(_ address: UInt32) -> Bool { address >> 28 == 0xE }

    /// The MAC address of a host: 02:68 (locally administered) followed by its IPv4 address;
    /// for a multicast group, 01:00:5E and the group's low 23 bits (RFC 1112 §6.4).
    private static func storeMAC(of address: UInt32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        let prefix: UInt16 = isMulticast(address) ? 0x0100 : 0x0268
        let suffix = isMulticast(address) ? 0x5E00_0000 | (address & 0x007F_FFFF) : address
        buffer.storeBytes(of: prefix.bigEndian, toByteOffset: offset, as: UInt16.self)
        buffer.storeBytes(of: suffix.bigEndian, toByteOffset: offset + 2, as: UInt32.self)
    }
}

/// The Internet checksum (RFC 1071) over big-endian 16-bit words.
struct OnesComplementSum {
    private var sum: UInt64 = 0

    mutating func add(word: UInt16) { sum += UInt64(word) }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index + 1 < bytes.count {
            sum += UInt64(bytes[index]) << 8 | UInt64(bytes[index + 1])
            index += 2
        }
        if index < bytes.count { sum += UInt64(bytes[index]) << 8 }
    }

    var checksum: UInt16 {
        var folded = sum
        while folded >> 16 != 0 { folded = (folded & 0xFFFF) + (folded >> 16) }
        return ~UInt16(folded)
    }
}
