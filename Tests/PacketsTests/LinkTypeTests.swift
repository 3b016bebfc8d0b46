import Packets
import Testing

@Suite("Link types")
struct LinkTypeTests {
    @Test("Link types describe themselves by number and name, as error messages show them")
    func descriptions() {
        #expect(LinkType(rawValue: 105).description == "link type 105 (IEEE 802.11)")
        #expect(LinkType.linuxCookedV2.description == "link type 276 (Linux cooked capture v2)")
        #expect(LinkType(rawValue: 4_000).description == "link type 4000")
    }

    @Test("Exactly the link types the decoder reads are decodable")
    func decodable() {
        let decodable: Set<UInt32> = [0, 1, 12, 14, 101, 108, 113, 228, 229, 276]
        for rawValue in UInt32(0) ... 300 {
            #expect(LinkType(rawValue: rawValue).isDecodable == decodable.contains(rawValue), "\(rawValue)")
        }
    }
}
