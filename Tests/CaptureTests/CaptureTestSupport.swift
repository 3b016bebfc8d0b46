import Capture
import Foundation
import Packets

/// Frames for the capture files the tests write (into a `ScratchDirectory`, with `PcapWriter`
/// or block by block with `PcapNG`): an mDNS query and a TCP SYN the hapscope developers
/// captured with `tcpdump -i lo` from traffic they generated (no third-party data; released
/// with the project under its license), and numbered variants so tests can tell packets apart.
enum TestFrames {
    /// Ethernet + IPv4 + UDP 127.0.0.1:46186 → 127.0.0.1:5353, `_hap._tcp.local` PTR query.
    static let mdnsQuery: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
        0x45, 0x00, 0x00, 0x3d, 0x04, 0xe7, 0x40, 0x00, 0x40, 0x11, 0x37, 0xc7, 0x7f, 0x00, 0x00, 0x01,
        0x7f, 0x00, 0x00, 0x01, 0xb4, 0x6a, 0x14, 0xe9, 0x00, 0x29, 0xfe, 0x3c, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x5f, 0x68, 0x61, 0x70, 0x04, 0x5f, 0x74,
        0x63, 0x70, 0x05, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x00, 0x00, 0x0c, 0x00, 0x01,
    ]

    /// Ethernet + IPv4 + TCP 127.0.0.1:50070 → 127.0.0.1:51826 SYN, captured on `lo`.
    static let tcpSyn: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
        0x45, 0x00, 0x00, 0x3c, 0x13, 0xa8, 0x40, 0x00, 0x40, 0x06, 0x29, 0x12, 0x7f, 0x00, 0x00, 0x01,
        0x7f, 0x00, 0x00, 0x01, 0xc3, 0x96, 0xca, 0x72, 0x91, 0x6c, 0x60, 0x6e, 0x00, 0x00, 0x00, 0x00,
        0xa0, 0x02, 0xff, 0xd7, 0xfe, 0x30, 0x00, 0x00, 0x02, 0x04, 0xff, 0xd7, 0x04, 0x02, 0x08, 0x0a,
        0x15, 0x3f, 0x19, 0x16, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x0a,
    ]

    /// `mdnsQuery` with its DNS transaction ID set to `number`, so each packet is distinct.
    static func numbered(_ number: Int) -> [UInt8] {
        var frame = mdnsQuery
        frame[42] = UInt8(truncatingIfNeeded: number >> 8)
        frame[43] = UInt8(truncatingIfNeeded: number)
        return frame
    }
}

/// A packet read back from a capture, copied out of libpcap's buffer.
struct ReadPacket: Equatable {
    var number: Int
    var seconds: Int64
    var nanoseconds: UInt32
    var capturedLength: Int
    var originalLength: Int
    var fileIndex: Int
    var linkType: LinkType
    var bytes: [UInt8]

    init(_ packet: CapturedPacket) {
        number = packet.info.number
        seconds = packet.info.timestamp.seconds
        nanoseconds = packet.info.timestamp.nanoseconds
        capturedLength = packet.info.capturedLength
        originalLength = packet.info.originalLength
        fileIndex = packet.fileIndex
        linkType = packet.linkType
        bytes = Array(packet.bytes)
    }
}

extension CaptureFileReader {
    /// Reads packets until the end or the first error, returning both.
    func readAll() -> (packets: [ReadPacket], error: CaptureError?) {
        var packets: [ReadPacket] = []
        do {
            while let packet = try next() { packets.append(ReadPacket(packet)) }
            return (packets, nil)
        } catch {
            return (packets, error)
        }
    }
}

/// Writes `frames` to a pcap file with timestamps one second and 123,456,789 ns apart.
func writeCapture(
    _ frames: [[UInt8]], to path: String, linkType: LinkType = .ethernet, snapLength: Int = 262_144,
    precision: PcapWriter.TimestampPrecision = .nanoseconds, firstSecond: Int64 = 1_700_000_000
) throws {
    let writer = try PcapWriter(file: path, linkType: linkType, snapLength: snapLength, precision: precision)
    for (index, frame) in frames.enumerated() {
        frame.withUnsafeBytes {
            writer.write($0, timestamp: Timestamp(seconds: firstSecond + Int64(index), nanoseconds: 123_456_789))
        }
    }
    try writer.close()
}

/// pcapng blocks built by hand (draft-ietf-opsawg-pcapng), little-endian.
enum PcapNG {
    static func sectionHeader() -> [UInt8] {
        block(type: 0x0A0D_0D0A, body: le32(0x1A2B_3C4D) + le16(1) + le16(0) + [UInt8](repeating: 0xFF, count: 8))
    }

    /// An interface description; `timestampResolution` is the if_tsresol option (9 = ns),
    /// left out when nil (then microseconds).
    static func interfaceDescription(linkType: UInt16 = 1, snapLength: UInt32 = 262_144, timestampResolution: UInt8? = 9) -> [UInt8] {
        var options: [UInt8] = []
        if let timestampResolution { options += le16(9) + le16(1) + [timestampResolution, 0, 0, 0] }
        options += le16(0) + le16(0)
        return block(type: 1, body: le16(linkType) + le16(0) + le32(snapLength) + options)
    }

    /// An enhanced packet block on interface 0 with a timestamp in the interface's units.
    static func enhancedPacket(_ frame: [UInt8], timestamp: UInt64, originalLength: Int? = nil) -> [UInt8] {
        let padding = [UInt8](repeating: 0, count: (4 - frame.count % 4) % 4)
        return block(
            type: 6,
            body: le32(0) + le32(UInt32(timestamp >> 32)) + le32(UInt32(timestamp & 0xFFFF_FFFF)) + le32(UInt32(frame.count))
                + le32(UInt32(originalLength ?? frame.count)) + frame + padding)
    }

    static func block(type: UInt32, body: [UInt8]) -> [UInt8] {
        let length = UInt32(12 + body.count)
        return le32(type) + le32(length) + body + le32(length)
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
