@testable import Packets
import Testing

@Suite("Checksums")
struct InternetChecksumTests {
    @Test("The RFC 1071 §3 example sums to 0xDDF2, so adding its complement sums to all ones")
    func rfc1071Example() {
        let data: [UInt8] = [0x00, 0x01, 0xF2, 0x03, 0xF4, 0xF5, 0xF6, 0xF7]
        var checksum = InternetChecksum()
        data.withUnsafeBytes { checksum.add($0) }
        #expect(!checksum.isValid)
        checksum.add(UInt16(~0xDDF2 & 0xFFFF))
        #expect(checksum.isValid)
    }

    @Test("An odd final byte counts as the high byte of a zero-padded word")
    func oddLength() {
        let data: [UInt8] = [0x12, 0x34, 0x56]  // 0x1234 + 0x5600 = 0x6834
        var checksum = InternetChecksum()
        data.withUnsafeBytes { checksum.add($0) }
        checksum.add(UInt16(~0x6834 & 0xFFFF))
        #expect(checksum.isValid)
    }

    /// The checksum the plain way: big-endian words, summed and folded one at a time.
    static func referenceSum(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var sum: UInt32 = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let low = index + 1 < bytes.endIndex ? UInt32(bytes[index + 1]) : 0
            sum += UInt32(bytes[index]) << 8 | low
            sum = (sum & 0xFFFF) + (sum >> 16)
            index += 2
        }
        return UInt16(sum)
    }

    @Test("Inputs of every length and alignment sum as the plain word-by-word method does", arguments: [0, 1, 3, 7])
    func matchesReference(skip: Int) {
        var generator = SystemRandomNumberGenerator()
        let data = (0 ..< 1_500).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        for length in [0, 1, 2, 7, 8, 9, 15, 16, 17, 64, 1_001, 1_400] {
            let slice = data[skip ..< skip + length]
            var checksum = InternetChecksum()
            data.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[skip ..< skip + length])) }
            checksum.add(~Self.referenceSum(slice))
            #expect(checksum.isValid, "length \(length) at offset \(skip)")
        }
    }

    @Test("With verification on, the offloaded loopback checksums are counted but the packets still decode")
    func offloadedChecksumsCounted() throws {
        let decoder = PacketDecoder(configuration: .init(verifiesChecksums: true))
        #expect(try decoder.summary(of: Fixtures.hapRequest, linkType: .raw) == .hapRequest)
        _ = try decoder.summary(of: Fixtures.mdnsQuery, linkType: .raw)
        _ = try decoder.summary(of: Fixtures.mdnsQueryIPv6, linkType: .raw)
        #expect(decoder.statistics.badIPv4HeaderChecksums == 0)
        #expect(decoder.statistics.badTCPChecksums == 1)
        #expect(decoder.statistics.badUDPChecksums == 2)
    }

    @Test("Correct TCP and UDP checksums are not counted")
    func correctChecksums() throws {
        let decoder = PacketDecoder(configuration: .init(verifiesChecksums: true))
        _ = try decoder.summary(of: Fixtures.hapRequest.replacing16(at: 36, with: Fixtures.hapRequestCorrectTCPChecksum), linkType: .raw)
        _ = try decoder.summary(of: Fixtures.mdnsQuery.replacing16(at: 26, with: Fixtures.mdnsQueryCorrectUDPChecksum), linkType: .raw)
        _ = try decoder.summary(of: Fixtures.mdnsQueryIPv6.replacing16(at: 46, with: Fixtures.mdnsQueryIPv6CorrectUDPChecksum), linkType: .raw)
        #expect(decoder.statistics == PacketDecoderStatistics())
    }

    @Test("A wrong IPv4 header checksum is counted")
    func wrongHeaderChecksum() throws {
        let decoder = PacketDecoder(configuration: .init(verifiesChecksums: true))
        _ = try decoder.summary(of: Fixtures.hapRequest.replacing16(at: 10, with: 0x28E8), linkType: .raw)
        #expect(decoder.statistics.badIPv4HeaderChecksums == 1)
    }

    @Test("A zero UDP checksum means none over IPv4 but is wrong over IPv6")
    func zeroUDPChecksum() throws {
        let decoder = PacketDecoder(configuration: .init(verifiesChecksums: true))
        _ = try decoder.summary(of: Fixtures.mdnsQuery.replacing16(at: 26, with: 0), linkType: .raw)
        #expect(decoder.statistics.badUDPChecksums == 0)
        _ = try decoder.summary(of: Fixtures.mdnsQueryIPv6.replacing16(at: 46, with: 0), linkType: .raw)
        #expect(decoder.statistics.badUDPChecksums == 1)
    }

    @Test("Without verification nothing is counted")
    func verificationOff() throws {
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: Fixtures.hapRequest, linkType: .raw)
        #expect(decoder.statistics.badTCPChecksums == 0)
    }
}
