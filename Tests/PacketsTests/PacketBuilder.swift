/// Hand-built IP, TCP and UDP packets for the cases no capture shows: every header field a
/// parameter, checksums left zero (the decoder does not require them).
enum PacketBuilder {
    static let clientIPv4: [UInt8] = [192, 168, 1, 10]
    static let accessoryIPv4: [UInt8] = [192, 168, 1, 20]
    /// fe80::1 and fe80::2.
    static let clientIPv6: [UInt8] = [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]
    static let accessoryIPv6: [UInt8] = [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [2]

    /// An IPv4 packet; `moreFragments` and `fragmentOffset` (in bytes, a multiple of 8) make a
    /// fragment, `totalLength` and `headerLength` override the computed fields.
    static func ipv4(
        protocol ipProtocol: UInt8, payload: [UInt8], options: [UInt8] = [], identification: UInt16 = 0x1234,
        moreFragments: Bool = false, fragmentOffset: Int = 0, totalLength: Int? = nil, headerLength: Int? = nil,
        source: [UInt8] = clientIPv4, destination: [UInt8] = accessoryIPv4
    ) -> [UInt8] {
        let headerBytes = headerLength ?? (20 + options.count)
        let total = totalLength ?? (20 + options.count + payload.count)
        let flagsAndOffset = UInt16(fragmentOffset / 8) | (moreFragments ? 0x2000 : 0)
        return [0x40 | UInt8(headerBytes / 4), 0x00] + Fixtures.bigEndian(UInt16(total)) + Fixtures.bigEndian(identification)
            + Fixtures.bigEndian(flagsAndOffset) + [64, ipProtocol, 0, 0] + source + destination + options + payload
    }

    /// An IPv6 packet whose payload (extension headers included) is `payload`.
    static func ipv6(
        nextHeader: UInt8, payload: [UInt8], payloadLength: Int? = nil,
        source: [UInt8] = clientIPv6, destination: [UInt8] = accessoryIPv6
    ) -> [UInt8] {
        [0x60, 0x00, 0x00, 0x00] + Fixtures.bigEndian(UInt16(payloadLength ?? payload.count)) + [nextHeader, 64]
            + source + destination + payload
    }

    /// A hop-by-hop, routing, destination options or other 8-octet-unit extension header with
    /// `padding` bytes of options (6 + 8n).
    static func extensionHeader(nextHeader: UInt8, optionBytes: Int = 6) -> [UInt8] {
        [nextHeader, UInt8((optionBytes + 2) / 8 - 1)] + [1, UInt8(optionBytes - 2)] + [UInt8](repeating: 0, count: optionBytes - 2)
    }

    /// An IPv6 fragment header.
    static func fragmentHeader(nextHeader: UInt8, offset: Int, moreFragments: Bool, identification: UInt32) -> [UInt8] {
        [nextHeader, 0] + Fixtures.bigEndian(UInt16(offset / 8) << 3 | (moreFragments ? 1 : 0)) + Fixtures.bigEndian(identification)
    }

    /// A TCP segment: 20-byte header plus `options`, flags ACK|PSH by default.
    static func tcp(
        sourcePort: UInt16 = 49_152, destinationPort: UInt16 = 51_826, sequence: UInt32 = 1_000, acknowledgment: UInt32 = 2_000,
        flags: UInt8 = 0x18, options: [UInt8] = [], dataOffsetWords: Int? = nil, payload: [UInt8] = []
    ) -> [UInt8] {
        let words = dataOffsetWords ?? (20 + options.count) / 4
        return Fixtures.bigEndian(sourcePort) + Fixtures.bigEndian(destinationPort) + Fixtures.bigEndian(sequence)
            + Fixtures.bigEndian(acknowledgment) + [UInt8(words << 4), flags] + Fixtures.bigEndian(UInt16(4_096)) + [0, 0, 0, 0]
            + options + payload
    }

    /// A UDP datagram; `length` overrides the length field.
    static func udp(sourcePort: UInt16 = 5_353, destinationPort: UInt16 = 5_353, payload: [UInt8], length: Int? = nil) -> [UInt8] {
        Fixtures.bigEndian(sourcePort) + Fixtures.bigEndian(destinationPort)
            + Fixtures.bigEndian(UInt16(length ?? 8 + payload.count)) + [0, 0] + payload
    }

    /// `count` bytes counting up from `start`, so that misplaced bytes show.
    static func pattern(_ count: Int, start: Int = 0) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0 + start) }
    }
}
