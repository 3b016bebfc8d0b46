import Packets
import Testing
import WireParsing

/// IP fragment reassembly through `PacketDecoder`, for IPv4 (RFC 791) and IPv6 (RFC 8200 §4.5).
@Suite("IP fragment reassembly")
struct FragmentReassemblyTests {
    /// A UDP datagram of 8 + 2992 bytes split at 1480-byte boundaries, as a 1500-byte MTU
    /// splits it.
    static let datagramPayload = PacketBuilder.pattern(2_992)
    static let udpDatagram = PacketBuilder.udp(sourcePort: 49_153, destinationPort: 5_353, payload: datagramPayload)

    /// IPv4 fragments of `udpDatagram`: [0, 1480), [1480, 2960), [2960, 3000).
    static func ipv4Fragments(identification: UInt16 = 0x4242) -> [[UInt8]] {
        stride(from: 0, to: udpDatagram.count, by: 1_480).map { start in
            let end = min(start + 1_480, udpDatagram.count)
            return PacketBuilder.ipv4(
                protocol: 17, payload: Array(udpDatagram[start ..< end]), identification: identification,
                moreFragments: end < udpDatagram.count, fragmentOffset: start)
        }
    }

    static let expected = DecodeSummary.udp(
        source: "192.168.1.10:49153", destination: "192.168.1.20:5353", payload: datagramPayload, missing: 0)

    func decodeAll(_ fragments: [[UInt8]], with decoder: PacketDecoder, seconds: Int64 = 1_700_000_000) throws -> [DecodeSummary] {
        try fragments.map { try decoder.summary(of: $0, linkType: .raw, seconds: seconds) }
    }

    @Test("IPv4 fragments in order complete the datagram with the last one")
    func ipv4InOrder() throws {
        let decoder = PacketDecoder()
        let results = try decodeAll(Self.ipv4Fragments(), with: decoder)
        #expect(results == [.fragmentBuffered, .fragmentBuffered, Self.expected])
        #expect(decoder.statistics.fragments == 3)
        #expect(decoder.statistics.reassembledDatagrams == 1)
        #expect(decoder.pendingDatagramCount == 0)
    }

    @Test("IPv4 fragments out of order complete the datagram with whichever fills the last hole")
    func ipv4OutOfOrder() throws {
        let fragments = Self.ipv4Fragments()
        for order in [[2, 0, 1], [1, 2, 0], [2, 1, 0]] {
            let decoder = PacketDecoder()
            let results = try decodeAll(order.map { fragments[$0] }, with: decoder)
            #expect(results == [.fragmentBuffered, .fragmentBuffered, Self.expected], "order \(order)")
        }
    }

    @Test("A TCP segment in fragments is delivered once whole, with its payload")
    func ipv4FragmentedTCP() throws {
        let segment = PacketBuilder.tcp(payload: PacketBuilder.pattern(100))
        let first = PacketBuilder.ipv4(protocol: 6, payload: Array(segment[..<64]), moreFragments: true)
        let second = PacketBuilder.ipv4(protocol: 6, payload: Array(segment[64...]), fragmentOffset: 64)
        let decoder = PacketDecoder()
        #expect(try decoder.summary(of: second, linkType: .raw) == .fragmentBuffered)
        #expect(try decoder.summary(of: first, linkType: .raw).payload == PacketBuilder.pattern(100))
    }

    @Test("A repeated fragment is counted as a duplicate and changes nothing")
    func duplicateFragment() throws {
        let fragments = Self.ipv4Fragments()
        let decoder = PacketDecoder()
        let results = try decodeAll([fragments[0], fragments[0], fragments[1], fragments[2]], with: decoder)
        #expect(results.last == Self.expected)
        #expect(decoder.statistics.duplicateFragments == 1)
    }

    @Test("Overlapping fragments that agree fill only the holes")
    func agreeingOverlap() throws {
        let datagram = Self.udpDatagram
        let decoder = PacketDecoder()
        let pieces: [(Range<Int>, Bool)] = [(0 ..< 1_480, true), (1_000 ..< 2_960, true), (2_952 ..< 3_000, false)]
        let results = try pieces.map { range, more in
            try decoder.summary(
                of: PacketBuilder.ipv4(protocol: 17, payload: Array(datagram[range]), moreFragments: more, fragmentOffset: range.lowerBound),
                linkType: .raw)
        }
        #expect(results == [.fragmentBuffered, .fragmentBuffered, Self.expected])
    }

    @Test("Overlapping fragments that disagree discard the datagram, blaming the first differing byte")
    func conflictingOverlap() throws {
        var forged = Array(Self.udpDatagram[1_000 ..< 2_960])
        forged[100] ^= 0xFF  // datagram byte 1100
        let decoder = PacketDecoder()
        let fragments = Self.ipv4Fragments()
        #expect(try decoder.summary(of: fragments[0], linkType: .raw) == .fragmentBuffered)
        let overlap = PacketBuilder.ipv4(
            protocol: 17, payload: forged, identification: 0x4242, moreFragments: true, fragmentOffset: 1_000)
        let error = try #require(decoder.error(decoding: overlap, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 20 + 100)
        #expect(decoder.statistics.datagramsDiscardedForConflictingOverlap == 1)
        #expect(decoder.pendingDatagramCount == 0)
        // What follows starts a new datagram that lacks its beginning.
        #expect(try decoder.summary(of: fragments[2], linkType: .raw) == .fragmentBuffered)
    }

    @Test("Two last fragments ending the datagram in different places discard it")
    func conflictingEnds() throws {
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: Self.ipv4Fragments()[2], linkType: .raw)
        let shorterEnd = PacketBuilder.ipv4(
            protocol: 17, payload: Array(Self.udpDatagram[2_960 ..< 2_976]), identification: 0x4242, fragmentOffset: 2_960)
        let error = try #require(decoder.error(decoding: shorterEnd, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(decoder.pendingDatagramCount == 0)
    }

    @Test("A last fragment ending before bytes already held discards the datagram")
    func endBeforeHeldBytes() throws {
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: Self.ipv4Fragments()[1], linkType: .raw)
        let earlyEnd = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.pattern(8), identification: 0x4242, fragmentOffset: 8)
        let error = try #require(decoder.error(decoding: earlyEnd, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(decoder.pendingDatagramCount == 0)
    }

    @Test("A fragment reaching past the end a last fragment set discards the datagram")
    func bytesBeyondEnd() throws {
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: Self.ipv4Fragments()[2], linkType: .raw)
        let beyond = PacketBuilder.ipv4(
            protocol: 17, payload: PacketBuilder.pattern(16), identification: 0x4242, moreFragments: true, fragmentOffset: 2_992)
        let error = try #require(decoder.error(decoding: beyond, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(decoder.statistics.datagramsDiscardedForConflictingOverlap == 1)
    }

    @Test("Fragments of different identifications, sources or protocols stay apart")
    func keysStayApart() throws {
        let decoder = PacketDecoder()
        let a = Self.ipv4Fragments(identification: 1)
        let b = Self.ipv4Fragments(identification: 2)
        let otherSource = Self.ipv4Fragments(identification: 1).map { fragment -> [UInt8] in
            var copy = fragment
            copy[15] = 99
            return copy
        }
        let interleaved = [a[0], b[0], otherSource[0], b[1], a[1], otherSource[2], b[2], a[2]]
        let results = try decodeAll(interleaved, with: decoder)
        #expect(results.filter { $0 == Self.expected }.count == 2)
        #expect(decoder.pendingDatagramCount == 1)
    }

    @Test("A fragment with more to come must carry a multiple of 8 bytes")
    func fragmentLengthMultipleOfEight() throws {
        let fragment = PacketBuilder.ipv4(protocol: 17, payload: PacketBuilder.pattern(13), moreFragments: true)
        let error = try #require(PacketDecoder().error(decoding: fragment, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
    }

    @Test("A fragment reaching past 65,535 bytes is malformed (ping of death)")
    func fragmentPastMaximum() throws {
        let fragment = PacketBuilder.ipv4(protocol: 1, payload: PacketBuilder.pattern(1_480), fragmentOffset: 65_528)
        let error = try #require(PacketDecoder().error(decoding: fragment, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 6)
    }

    @Test("A fragment cut by the snap length cannot be reassembled and is truncated")
    func fragmentCut() throws {
        let fragment = Self.ipv4Fragments()[0]
        let error = try #require(PacketDecoder().error(decoding: fragment, linkType: .raw, capturedLength: 200))
        #expect(error == DecodeError(.truncated, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.offset == 200)
    }

    @Test("A datagram waiting longer than the timeout expires")
    func timeout() throws {
        let decoder = PacketDecoder(configuration: .init(fragmentReassembly: .init(timeout: .seconds(30))))
        let fragments = Self.ipv4Fragments()
        #expect(try decoder.summary(of: fragments[0], linkType: .raw, seconds: 100) == .fragmentBuffered)
        #expect(try decoder.summary(of: fragments[1], linkType: .raw, seconds: 129) == .fragmentBuffered)
        #expect(try decoder.summary(of: fragments[2], linkType: .raw, seconds: 131) == .fragmentBuffered)
        #expect(decoder.statistics.datagramsExpired == 1)
        #expect(decoder.pendingDatagramCount == 1)
    }

    @Test("Beyond the pending-datagram limit the oldest datagram is dropped")
    func pendingDatagramLimit() throws {
        let decoder = PacketDecoder(configuration: .init(fragmentReassembly: .init(maximumPendingDatagrams: 2)))
        let datagrams = (1 ... 3).map { Self.ipv4Fragments(identification: UInt16($0)) }
        for datagram in datagrams { _ = try decoder.summary(of: datagram[0], linkType: .raw) }
        #expect(decoder.statistics.datagramsDroppedByLimit == [.ipFragmentDatagrams: 1])
        #expect(decoder.pendingDatagramCount == 2)
        #expect(try decodeAll(Array(datagrams[0][1...]), with: decoder).last == .fragmentBuffered)
        #expect(try decodeAll(Array(datagrams[2][1...]), with: decoder).last == Self.expected)
    }

    @Test("Beyond the pending-byte limit the oldest datagram makes room, or the fragment is refused")
    func pendingByteLimit() throws {
        let decoder = PacketDecoder(configuration: .init(fragmentReassembly: .init(maximumPendingBytes: 4_096)))
        let first = Self.ipv4Fragments(identification: 1)
        let second = Self.ipv4Fragments(identification: 2)
        _ = try decoder.summary(of: first[0], linkType: .raw)  // 2 KiB of buffer
        _ = try decoder.summary(of: second[0], linkType: .raw)  // 2 KiB more: at the limit
        #expect(decoder.statistics.datagramsDroppedByLimit.isEmpty)
        // Growing the second datagram to 4 KiB pushes the first out.
        #expect(try decoder.summary(of: second[2], linkType: .raw) == .fragmentBuffered)
        #expect(decoder.statistics.datagramsDroppedByLimit == [.ipFragmentBytes: 1])
        #expect(try decoder.summary(of: second[1], linkType: .raw) == Self.expected)

        let tiny = PacketDecoder(configuration: .init(fragmentReassembly: .init(maximumPendingBytes: 1_024)))
        let error = try #require(tiny.error(decoding: first[0], linkType: .raw))
        #expect(error == DecodeError(.limitExceeded, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.limit == .ipFragmentBytes)
    }

    @Test("Beyond the per-datagram fragment limit the datagram is dropped")
    func fragmentCountLimit() throws {
        let decoder = PacketDecoder(configuration: .init(fragmentReassembly: .init(maximumFragmentsPerDatagram: 2)))
        let fragments = Self.ipv4Fragments()
        _ = try decoder.summary(of: fragments[0], linkType: .raw)
        _ = try decoder.summary(of: fragments[1], linkType: .raw)
        let error = try #require(decoder.error(decoding: fragments[2], linkType: .raw))
        #expect(error == DecodeError(.limitExceeded, layer: .ipv4, offset: 0, expected: ""))
        #expect(error.limit == .ipFragmentsPerDatagram)
        #expect(decoder.pendingDatagramCount == 0)
        #expect(decoder.statistics.datagramsDroppedByLimit == [.ipFragmentsPerDatagram: 1])
    }

    @Test("Finishing counts the datagrams still waiting as expired")
    func finishExpiresPending() throws {
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: Self.ipv4Fragments()[1], linkType: .raw)
        decoder.finish()
        #expect(decoder.statistics.datagramsExpired == 1)
        #expect(decoder.pendingDatagramCount == 0)
    }

    @Test("An error in a reassembled datagram points at the fragment that completed it")
    func errorInReassembledDatagram() throws {
        let badSegment = PacketBuilder.tcp(dataOffsetWords: 3, payload: PacketBuilder.pattern(20))
        let first = PacketBuilder.ipv4(protocol: 6, payload: Array(badSegment[..<16]), moreFragments: true)
        let second = PacketBuilder.ipv4(protocol: 6, payload: Array(badSegment[16...]), fragmentOffset: 16)
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: first, linkType: .raw)
        let error = try #require(decoder.error(decoding: second, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .tcp, offset: 0, expected: ""))
        #expect(error.offset == 20)
        #expect(error.expected.contains("byte 12 of the datagram reassembled from fragments"))
    }

    // MARK: IPv6

    /// IPv6 fragments of `udpDatagram` behind a destination options header, each `size` bytes.
    static func ipv6Fragments(identification: UInt32 = 0xCAFE_0001, size: Int = 1_448) -> [[UInt8]] {
        stride(from: 0, to: udpDatagram.count, by: size).map { start in
            let end = min(start + size, udpDatagram.count)
            return PacketBuilder.ipv6(
                nextHeader: 60,
                payload: PacketBuilder.extensionHeader(nextHeader: 44)
                    + PacketBuilder.fragmentHeader(nextHeader: 17, offset: start, moreFragments: end < udpDatagram.count, identification: identification)
                    + Array(udpDatagram[start ..< end]))
        }
    }

    static let expectedIPv6 = DecodeSummary.udp(
        source: "[fe80::1]:49153", destination: "[fe80::2]:5353", payload: datagramPayload, missing: 0)

    @Test("IPv6 fragments behind an extension header reassemble in any order")
    func ipv6Reassembly() throws {
        let fragments = Self.ipv6Fragments()
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2]] {
            let decoder = PacketDecoder()
            let results = try decodeAll(order.map { fragments[$0] }, with: decoder)
            #expect(results == [.fragmentBuffered, .fragmentBuffered, Self.expectedIPv6], "order \(order)")
        }
    }

    @Test("The first fragment's next header names the reassembled payload, which may hold more extension headers")
    func ipv6ExtensionHeadersInsideFragmentablePart() throws {
        let fragmentable = PacketBuilder.extensionHeader(nextHeader: 17) + PacketBuilder.udp(payload: PacketBuilder.pattern(40))
        let first = PacketBuilder.ipv6(
            nextHeader: 44,
            payload: PacketBuilder.fragmentHeader(nextHeader: 60, offset: 0, moreFragments: true, identification: 9) + Array(fragmentable[..<32]))
        let second = PacketBuilder.ipv6(
            nextHeader: 44,
            payload: PacketBuilder.fragmentHeader(nextHeader: 6, offset: 32, moreFragments: false, identification: 9) + Array(fragmentable[32...]))
        let decoder = PacketDecoder()
        #expect(try decoder.summary(of: second, linkType: .raw) == .fragmentBuffered)
        #expect(try decoder.summary(of: first, linkType: .raw).payload == PacketBuilder.pattern(40))
    }

    @Test("An atomic fragment (offset 0, no more fragments) is a whole packet")
    func atomicFragment() throws {
        let packet = PacketBuilder.ipv6(
            nextHeader: 44, payload: PacketBuilder.fragmentHeader(nextHeader: 17, offset: 0, moreFragments: false, identification: 5) + PacketBuilder.udp(payload: [1]))
        let decoder = PacketDecoder()
        #expect(try decoder.summary(of: packet, linkType: .raw).payload == [1])
        #expect(decoder.statistics.fragments == 0)
    }

    @Test("An IPv6 fragment with more to come must carry a multiple of 8 bytes")
    func ipv6FragmentLength() throws {
        let packet = PacketBuilder.ipv6(
            nextHeader: 44, payload: PacketBuilder.fragmentHeader(nextHeader: 17, offset: 0, moreFragments: true, identification: 5) + PacketBuilder.pattern(12))
        let error = try #require(PacketDecoder().error(decoding: packet, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv6, offset: 0, expected: ""))
    }

    @Test("A second fragment header inside a reassembled payload is malformed")
    func nestedFragmentHeader() throws {
        let inner = PacketBuilder.fragmentHeader(nextHeader: 17, offset: 8, moreFragments: true, identification: 6) + PacketBuilder.pattern(8)
        let first = PacketBuilder.ipv6(
            nextHeader: 44, payload: PacketBuilder.fragmentHeader(nextHeader: 44, offset: 0, moreFragments: true, identification: 5) + Array(inner[..<8]))
        let second = PacketBuilder.ipv6(
            nextHeader: 44, payload: PacketBuilder.fragmentHeader(nextHeader: 44, offset: 8, moreFragments: false, identification: 5) + Array(inner[8...]))
        let decoder = PacketDecoder()
        _ = try decoder.summary(of: first, linkType: .raw)
        let error = try #require(decoder.error(decoding: second, linkType: .raw))
        #expect(error == DecodeError(.malformed, layer: .ipv6, offset: 0, expected: ""))
    }

    @Test("IPv4 and IPv6 fragments with the same identification never mix")
    func familiesStayApart() throws {
        let decoder = PacketDecoder()
        let v4 = Self.ipv4Fragments(identification: 7)
        let v6 = Self.ipv6Fragments(identification: 7, size: 1_480)
        let results = try decodeAll([v4[0], v6[0], v4[1], v6[1], v6[2], v4[2]], with: decoder)
        #expect(results[4] == Self.expectedIPv6)
        #expect(results[5] == Self.expected)
    }
}
