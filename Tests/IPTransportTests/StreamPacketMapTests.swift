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

    @Test("forgetting keeps the mark that covers the offset and the newest, and drops the rest")
    func forget() {
        var map = StreamPacketMap()
        map.mark(0, .numbered(1))
        map.mark(10, .numbered(2))
        map.mark(20, .numbered(3))
        map.mark(30, .numbered(4))
        map.forget(before: 15)
        #expect(map.packet(at: 15)?.number == 2, "the message in progress began in packet 2")
        #expect(map.packet(at: 35)?.number == 4, "its last byte so far is in the newest piece")
        #expect(map.packet(at: 5) == nil, "bytes no message can refer to any more")
        #expect(map.packet(at: 25)?.number == 2, "the middle of a message is never asked for")
        map.forget(before: 30)
        #expect(map.packet(at: 30)?.number == 4)
        #expect(map.packet(at: 15) == nil)
    }

    @Test("forgetting before the first mark keeps everything")
    func forgetBeforeTheFirstMark() {
        var map = StreamPacketMap()
        map.mark(10, .numbered(1))
        map.forget(before: 5)
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
                #expect(map.packet(at: messageStart)?.number == truth(messageStart), "first byte at \(messageStart)")
                #expect(map.packet(at: end - 1)?.number == truth(end - 1), "last byte at \(end - 1)")
                messageStart = end
            }
            map.forget(before: messageStart)
        }
    }
}
