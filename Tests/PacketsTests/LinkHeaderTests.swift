import Packets
import Testing
import WireParsing

@Suite("Link layers")
struct LinkHeaderTests {
    let decoder = PacketDecoder()

    @Test("Ethernet frames carrying IPv4 yield the TCP segment inside")
    func ethernetIPv4() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest
        #expect(try decoder.summary(of: frame, linkType: .ethernet) == .hapRequest)
    }

    @Test("Ethernet frames carrying IPv6 yield the UDP datagram inside")
    func ethernetIPv6() throws {
        let frame = Fixtures.ethernet(0x86DD) + Fixtures.mdnsQueryIPv6
        #expect(try decoder.summary(of: frame, linkType: .ethernet)
            == .udp(source: "[::1]:37936", destination: "[::1]:5353", payload: Fixtures.mdnsQueryPayload, missing: 0))
    }

    @Test("Ethernet padding and a trailing frame check sequence are cut off by the IP length")
    func ethernetTrailerIgnored() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest + [0xDE, 0xAD, 0xBE, 0xEF]
        #expect(try decoder.summary(of: frame, linkType: .ethernet) == .hapRequest)
    }

    @Test("A single 802.1Q tag is skipped")
    func singleVLANTag() throws {
        let frame = Fixtures.ethernet(0x8100) + [0x20, 0x0A] + [0x08, 0x00] + Fixtures.hapRequest
        #expect(try decoder.summary(of: frame, linkType: .ethernet) == .hapRequest)
    }

    @Test("Stacked 802.1ad and 802.1Q tags (Q-in-Q) are skipped")
    func stackedVLANTags() throws {
        let frame = Fixtures.ethernet(0x88A8) + [0x00, 0x64] + Fixtures.vlanTag(0x8100, vlan: 10)
            + [0x86, 0xDD] + Fixtures.mdnsQueryIPv6
        #expect(try decoder.summary(of: frame, linkType: .ethernet).payload == Fixtures.mdnsQueryPayload)
    }

    @Test("More stacked VLAN tags than the configured limit is a limit error")
    func vlanTagLimit() throws {
        let strict = PacketDecoder(configuration: .init(maximumVLANTags: 2))
        let twoTags = Fixtures.ethernet(0x88A8) + [0x00, 0x01] + [0x81, 0x00] + [0x00, 0x02] + [0x08, 0x00] + Fixtures.hapRequest
        #expect(try strict.summary(of: twoTags, linkType: .ethernet) == .hapRequest)
        let threeTags = Fixtures.ethernet(0x88A8) + [0x00, 0x01] + [0x88, 0xA8] + [0x00, 0x02] + [0x81, 0x00] + [0x00, 0x03]
            + [0x08, 0x00] + Fixtures.hapRequest
        let error = try #require(strict.error(decoding: threeTags, linkType: .ethernet))
        #expect(error == DecodeError(.limitExceeded, layer: .link, offset: 0, expected: ""))
        #expect(error.offset == 22)
    }

    @Test("ARP over Ethernet is reported as not IP, with its EtherType")
    func arpIsNotIP() throws {
        let arp: [UInt8] = [0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01] + [UInt8](repeating: 0, count: 20)
        #expect(try decoder.summary(of: Fixtures.ethernet(0x0806) + arp, linkType: .ethernet) == .notIP(.etherType(0x0806)))
    }

    @Test("An IEEE 802.3 length field in place of an EtherType is reported as 802.3")
    func ieee8023Frame() throws {
        let stp = Fixtures.ethernet(0x0026) + [0x42, 0x42, 0x03] + [UInt8](repeating: 0, count: 35)
        #expect(try decoder.summary(of: stp, linkType: .ethernet) == .notIP(.ieee8023))
    }

    @Test("Linux cooked v2 frames, as tcpdump -i any writes them, decode")
    func linuxCookedV2() throws {
        #expect(try decoder.summary(of: Fixtures.linuxCookedV2(0x0800) + Fixtures.hapRequest, linkType: .linuxCookedV2) == .hapRequest)
        #expect(try decoder.summary(of: Fixtures.linuxCookedV2(0x86DD) + Fixtures.mdnsQueryIPv6, linkType: .linuxCookedV2).payload
            == Fixtures.mdnsQueryPayload)
    }

    @Test("Linux cooked v1 frames decode, VLAN tags libpcap put back included")
    func linuxCooked() throws {
        #expect(try decoder.summary(of: Fixtures.linuxCooked(0x0800) + Fixtures.hapRequest, linkType: .linuxCooked) == .hapRequest)
        let tagged = Fixtures.linuxCooked(0x8100) + [0x00, 0x07, 0x08, 0x00] + Fixtures.hapRequest
        #expect(try decoder.summary(of: tagged, linkType: .linuxCooked) == .hapRequest)
    }

    @Test("BSD loopback (NULL) reads the family in either byte order")
    func bsdNull() throws {
        let littleEndianIPv4: [UInt8] = [0x02, 0x00, 0x00, 0x00]
        let bigEndianIPv4: [UInt8] = [0x00, 0x00, 0x00, 0x02]
        #expect(try decoder.summary(of: littleEndianIPv4 + Fixtures.hapRequest, linkType: .null) == .hapRequest)
        #expect(try decoder.summary(of: bigEndianIPv4 + Fixtures.hapRequest, linkType: .null) == .hapRequest)
    }

    @Test("BSD loopback knows AF_INET6 of Linux, the BSDs and Darwin", arguments: [10, 24, 28, 30] as [UInt8])
    func bsdNullIPv6(family: UInt8) throws {
        let frame = [family, 0, 0, 0] + Fixtures.mdnsQueryIPv6
        #expect(try decoder.summary(of: frame, linkType: .null).payload == Fixtures.mdnsQueryPayload)
    }

    @Test("BSD loopback with another address family is not IP")
    func bsdNullOtherFamily() throws {
        #expect(try decoder.summary(of: [0x07, 0, 0, 0, 1, 2, 3], linkType: .null) == .notIP(.addressFamily(7)))
    }

    @Test("OpenBSD loopback (LOOP) reads the family in network byte order")
    func openBSDLoop() throws {
        #expect(try decoder.summary(of: [0, 0, 0, 2] + Fixtures.hapRequest, linkType: .loop) == .hapRequest)
        #expect(try decoder.summary(of: [0, 0, 0, 24] + Fixtures.mdnsQueryIPv6, linkType: .loop).payload == Fixtures.mdnsQueryPayload)
    }

    @Test("Raw IP of any DLT number lets the version nibble choose", arguments: [LinkType.raw, .rawBSD, .rawFile])
    func rawIP(linkType: LinkType) throws {
        #expect(try decoder.summary(of: Fixtures.hapRequest, linkType: linkType) == .hapRequest)
        #expect(try decoder.summary(of: Fixtures.mdnsQueryIPv6, linkType: linkType).payload == Fixtures.mdnsQueryPayload)
    }

    @Test("Raw IP with a version other than 4 or 6 is malformed")
    func rawIPBadVersion() throws {
        let error = try #require(decoder.error(decoding: [0x50] + Fixtures.hapRequest.dropFirst(), linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .link, offset: 0, expected: ""))
    }

    @Test("LINKTYPE_IPV4 and LINKTYPE_IPV6 carry the one version they name")
    func versionSpecificRawIP() throws {
        #expect(try decoder.summary(of: Fixtures.hapRequest, linkType: .ipv4) == .hapRequest)
        #expect(try decoder.summary(of: Fixtures.mdnsQueryIPv6, linkType: .ipv6).payload == Fixtures.mdnsQueryPayload)
        let mismatch = try #require(decoder.error(decoding: Fixtures.mdnsQueryIPv6, linkType: .ipv4))
        #expect(mismatch == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
    }

    @Test("An unsupported link type is an error that names it")
    func unsupportedLinkType() throws {
        let error = try #require(decoder.error(decoding: [0x08, 0x02, 0x00, 0x00], linkType: LinkType(rawValue: 105)))
        #expect(error == DecodeError(.unsupported, layer: .link, offset: 0, expected: ""))
        #expect(error.expected.contains("link type 105 (IEEE 802.11) is not supported"))
    }

    @Test("A link header cut by the snap length is truncated; a runt frame captured whole is malformed")
    func shortLinkHeaders() throws {
        let frame = Fixtures.ethernet(0x0800) + Fixtures.hapRequest
        let cut = try #require(decoder.error(decoding: frame, linkType: .ethernet, capturedLength: 10))
        #expect(cut == DecodeError(.truncated, layer: .link, offset: 0, expected: ""))
        #expect(cut.offset == 0)
        let runt = try #require(decoder.error(decoding: Array(frame.prefix(13)), linkType: .ethernet))
        #expect(runt == DecodeError(.malformed, layer: .link, offset: 0, expected: ""))
        #expect(runt.offset == 0)  // the header that did not fit starts there
        let shortCooked = try #require(decoder.error(decoding: Array(Fixtures.linuxCookedV2(0x0800).prefix(19)), linkType: .linuxCookedV2))
        #expect(shortCooked.layer == .link)
        let shortNull = try #require(decoder.error(decoding: [0x02, 0x00], linkType: .null))
        #expect(shortNull.layer == .link)
    }
}
