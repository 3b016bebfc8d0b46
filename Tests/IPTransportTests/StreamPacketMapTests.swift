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

    @Test("marking a piece forgets what lies before the message in progress, keeping the mark that covers its start")
    func forget() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        map.settle(before: 15)
        map.mark(20, .numbered(3))
        map.mark(30, .numbered(4))
        #expect(map.packet(at: 15)?.number == 2, "the message in progress began in packet 2")
        #expect(map.packet(at: 35)?.number == 4, "its last byte so far is in the newest piece")
        #expect(map.packet(at: 5) == nil, "bytes no message can refer to any more")
        map.settle(before: 30)
        map.mark(40, .numbered(5))
        #expect(map.packet(at: 30)?.number == 4)
        #expect(map.packet(at: 25) == nil, "the middle of a delivered message is never asked for")
        #expect(map.packet(at: 15) == nil)
    }

    @Test("a message delivered names the packets of its first and last byte, and what lies before its end is settled")
    func deliver() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        let packets = map.deliver(5 ..< 12)
        #expect(packets.first?.number == 1)
        #expect(packets.last?.number == 2)
        map.mark(20, .numbered(3))
        #expect(map.packet(at: 12)?.number == 2)
        #expect(map.packet(at: 5) == nil)
    }

    @Test("settling before the first mark keeps everything")
    func forgetBeforeTheFirstMark() {
        var map = StreamPacketMap()
        map.mark(10, .numbered(1))
        map.settle(before: 5)
        map.mark(20, .numbered(2))
        #expect(map.packet(at: 10)?.number == 1)
    }

    @Test("over a long stream of messages, each message's first and last byte are found in the right packet")
    func longStream() {
        var random = SeededRandom(seed: 14)
        var map = StreamPacketMap()
        var all: [(offset: Int, packet: Int)] = []
        func truth(_ offset: Int) -> Int? { all.last { $0.offset <= offset }?.packet }
        var offset = 0
        var messageStart = 0
        for number in 1 ... 2_000 {
            map.mark(offset, .numbered(number))
            if all.last?.offset == offset { all.removeLast() }
            all.append((offset, number))
            let pieceStart = offset
            offset += Int.random(in: 0 ... 40, using: &random)
            // Messages that end in this piece are delivered while it is parsed.
            while offset > max(messageStart, pieceStart), Int.random(in: 0 ..< 3, using: &random) == 0 {
                let end = Int.random(in: max(messageStart, pieceStart) ..< offset, using: &random) + 1
                let (first, last) = map.deliver(messageStart ..< end)
                #expect(first?.number == truth(messageStart), "first byte at \(messageStart)")
                #expect(last?.number == truth(end - 1), "last byte at \(end - 1)")
                messageStart = end
            }
        }
    }
}
