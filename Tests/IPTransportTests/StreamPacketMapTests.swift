import Packets
import Testing
import TestSupport
@testable import IPTransport

@Suite("Which packet carried each byte of a stream")
struct StreamPacketMapTests {
    @Test("before the first mark no packet is known")
    func empty() {
        let map = StreamPacketMap()
        #expect(map.packet(at: 0) == nil)
    }

    @Test("a byte belongs to the packet of the last mark at or before it")
    func lookup() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        map.mark(25, .numbered(3))
        #expect([0, 9, 10, 24, 25, 1_000].map { map.packet(at: $0)?.number } == [1, 1, 2, 2, 3, 3])
    }

    @Test("a second mark at the same offset replaces the first: an empty piece carried nothing")
    func sameOffset() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(5, .numbered(2))
        map.mark(5, .numbered(3))
        #expect(map.packet(at: 5)?.number == 3)
        #expect(map.packet(at: 4)?.number == 1)
    }

    @Test("forgetting keeps the mark that covers the offset, and drops only earlier ones")
    func forget() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        map.mark(20, .numbered(3))
        map.forget(before: 15)
        #expect(map.packet(at: 15)?.number == 2, "the message in progress began in packet 2")
        #expect(map.packet(at: 20)?.number == 3)
        #expect(map.packet(at: 5) == nil, "bytes no message can refer to any more")
        map.forget(before: 20)
        #expect(map.packet(at: 20)?.number == 3)
        #expect(map.packet(at: 15) == nil)
    }

    @Test("a mark at the offset of the only mark left after forgetting is a new mark, not a replacement")
    func markAfterForgetting() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        map.forget(before: 10)
        map.mark(10, .numbered(3))
        #expect(map.packet(at: 10)?.number == 3)
    }

    @Test("over a long stream the map compacts itself and still answers every lookup as a full list would")
    func longStream() {
        var random = SeededRandom(seed: 14)
        var map = StreamPacketMap()
        var all: [(offset: Int, packet: Int)] = []
        var offset = 0
        var forgotten = 0
        for number in 1 ... 2_000 {
            map.mark(offset, .numbered(number))
            if all.last?.offset == offset { all.removeLast() }
            all.append((offset, number))
            offset += Int.random(in: 0 ... 40, using: &random)
            if Bool.random(using: &random) {
                forgotten = Int.random(in: forgotten ... offset, using: &random)
                map.forget(before: forgotten)
            }
            let probe = Int.random(in: forgotten ... offset, using: &random)
            let expected = all.last { $0.offset <= probe }?.packet
            #expect(map.packet(at: probe)?.number == expected, "offset \(probe) after packet \(number)")
        }
    }
}
