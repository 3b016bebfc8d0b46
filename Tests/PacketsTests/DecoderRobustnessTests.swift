import Packets
import Testing
import WireParsing
import TestSupport

@Suite("Decoding hostile input")
struct DecoderRobustnessTests {
    static let linkTypes: [LinkType] = [.ethernet, .linuxCooked, .linuxCookedV2, .null, .loop, .raw, .ipv4, .ipv6]

    /// Decodes `frame` and checks the one promise every outcome keeps: an error points inside
    /// the packet.
    func expectCleanOutcome(_ decoder: PacketDecoder, _ frame: [UInt8], linkType: LinkType, capturedLength: Int? = nil, note: String) {
        let captured = min(capturedLength ?? frame.count, frame.count)
        if let error = decoder.error(decoding: frame, linkType: linkType, capturedLength: captured) {
            #expect(error.offset >= 0 && error.offset <= captured, "\(note): \(error)")
        }
    }

    @Test("Every single-bit flip of real frames decodes or fails cleanly, whole or cut")
    func bitFlips() {
        let decoder = PacketDecoder(configuration: .init(verifiesChecksums: true))
        let frames: [(LinkType, [UInt8])] = [
            (.ethernet, Fixtures.ethernet(0x0800) + Fixtures.hapRequest),
            (.linuxCookedV2, Fixtures.linuxCookedV2(0x86DD) + Fixtures.mdnsQueryIPv6),
            (.raw, Fixtures.mdnsQuery),
        ]
        for (linkType, frame) in frames {
            for bit in 0 ..< frame.count * 8 {
                var mutated = frame
                mutated[bit / 8] ^= 1 << (bit % 8)
                expectCleanOutcome(decoder, mutated, linkType: linkType, note: "\(linkType) bit \(bit)")
                expectCleanOutcome(decoder, mutated, linkType: linkType, capturedLength: 60, note: "\(linkType) bit \(bit), cut")
            }
        }
    }

    @Test("Random frames of every link type decode or fail cleanly", arguments: [1, 2, 3, 4] as [UInt64])
    func randomFrames(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let decoder = PacketDecoder()
        for round in 0 ..< 2_000 {
            let length = Int.random(in: 0 ... 120, using: &random)
            var frame = (0 ..< length).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            // Steer a share of frames past the link layer towards IP.
            if length > 20, round % 2 == 0 {
                frame[12] = 0x08
                frame[13] = 0x00
                frame[14] = 0x45
            }
            let linkType = Self.linkTypes[round % Self.linkTypes.count]
            expectCleanOutcome(decoder, frame, linkType: linkType, note: "seed \(seed) round \(round)")
        }
    }

    @Test("Random fragment streams never hold more than the limits allow", arguments: [7, 8, 9] as [UInt64])
    func randomFragments(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let limits = FragmentReassemblyLimits(maximumPendingDatagrams: 8, maximumPendingBytes: 64 << 10, maximumFragmentsPerDatagram: 16)
        let decoder = PacketDecoder(configuration: .init(fragmentReassembly: limits))
        for round in 0 ..< 3_000 {
            let offset = Int.random(in: 0 ... 40, using: &random) * 8
            let length = Int.random(in: 0 ... 25, using: &random) * 8
            let more = Bool.random(using: &random)
            let fill = UInt8.random(in: 0 ... 1, using: &random)
            let fragment = PacketBuilder.ipv4(
                protocol: 17, payload: [UInt8](repeating: fill, count: length),
                identification: UInt16.random(in: 1 ... 12, using: &random), moreFragments: more, fragmentOffset: offset)
            let summary = try? decoder.summary(of: fragment, linkType: .raw, seconds: Int64(round / 100))
            if case .udp(_, _, let payload, _)? = summary {
                #expect(payload.count <= 400)
            }
            #expect(decoder.pendingDatagramCount <= 8)
        }
    }
}
