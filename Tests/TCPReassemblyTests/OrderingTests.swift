import Packets
import Testing
@testable import TCPReassembly

@Suite struct OrderingTests {
    typealias H = Harness

    @Test func inOrderBytesAreHandedToTheDelegateWithoutCopying() {
        let h = Harness()
        h.handshake()
        let payload: [UInt8] = Array("GET /accessories HTTP/1.1\r\n\r\n".utf8)
        payload.withUnsafeBytes { bytes in
            let info = PacketInfo(number: 4, timestamp: h.clock, capturedLength: 54 + bytes.count, originalLength: 54 + bytes.count)
            h.reassembler.process(TCPSegment(
                packet: info, source: H.client, destination: H.server, sequenceNumber: 1001,
                acknowledgmentNumber: 5001, flags: .ack, window: 65_535, payload: bytes))
            let delivered = h.delegate.chunkAddresses
            #expect(delivered == [bytes.baseAddress])
        }
    }

    @Test func outOfOrderSegmentsWaitForTheHoleAndKeepTheirOwnPackets() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")   // 4
        h.send(seq: 1007, "ghi")   // 5
        h.send(seq: 1010, "jkl")   // 6
        h.send(seq: 1004, "def")   // 7
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .received(connection: 1, .clientToServer, "def", packet: 7),
            .received(connection: 1, .clientToServer, "ghi", packet: 5),
            .received(connection: 1, .clientToServer, "jkl", packet: 6),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.outOfOrderSegments == 2)
        #expect(statistics.retransmissions == 0)
        #expect(statistics.deliveredBytes == 12)
        #expect(h.reassembler.statistics.bufferedBytes == 0)
        #expect(h.reassembler.statistics.peakBufferedBytes == 6)
    }

    @Test func retransmittedBytesAreCountedButNotDeliveredAgain() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abcdef")   // 4
        h.send(seq: 1001, "abcdef")   // 5: a full retransmission
        h.send(seq: 1004, "defghi")   // 6: half old, half new
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abcdef", packet: 4),
            .received(connection: 1, .clientToServer, "ghi", packet: 6),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.retransmissions == 2)
        #expect(statistics.payloadBytes == 18)
        #expect(statistics.deliveredBytes == 9)
        #expect(statistics.conflictingOverlaps == 0)
    }

    @Test func theBytesReceivedFirstWinAndDifferingOverlapsAreCounted() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1001, "abc")      // 4
        h.send(seq: 1007, "GHI")      // 5: buffered first
        h.send(seq: 1007, "xyz")      // 6: same place, other bytes: ignored
        h.send(seq: 1004, "def!!!")   // 7: fills the hole and overlaps "GHI" with other bytes
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "abc", packet: 4),
            .received(connection: 1, .clientToServer, "def", packet: 7),
            .received(connection: 1, .clientToServer, "GHI", packet: 5),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.conflictingOverlaps == 2)
        #expect(statistics.retransmissions == 2)
        #expect(statistics.outOfOrderSegments == 1)
    }

    @Test func aSegmentSpanningSeveralBufferedRangesFillsOnlyTheirHoles() throws {
        let h = Harness()
        h.handshake()
        h.send(seq: 1003, "c")             // 4
        h.send(seq: 1006, "fg")            // 5
        h.send(seq: 1002, "bcdefghi")      // 6: stored as "b", "de", "hi" around what is held
        h.send(seq: 1001, "a")             // 7
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "a", packet: 7),
            .received(connection: 1, .clientToServer, "b", packet: 6),
            .received(connection: 1, .clientToServer, "c", packet: 4),
            .received(connection: 1, .clientToServer, "de", packet: 6),
            .received(connection: 1, .clientToServer, "fg", packet: 5),
            .received(connection: 1, .clientToServer, "hi", packet: 6),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.conflictingOverlaps == 0)
        #expect(statistics.retransmissions == 1)
    }

    @Test func sequenceNumbersWrapAroundAt2To32() throws {
        let h = Harness()
        h.handshake(clientISN: 0xFFFF_FFF0)
        h.send(seq: 0xFFFF_FFF1, "0123456789abcdefghij")   // 4: crosses 2^32
        h.send(seq: 0x0000_0005, "KLM")                    // 5
        h.send(seq: 0x0000_000B, "QR")                     // 6: ahead of a hole
        h.send(seq: 0xFFFF_FFFB, "abcdefghij")             // 7: a retransmission from before the wrap
        h.send(seq: 0x0000_0008, "NOP")                    // 8
        #expect(h.events.dropFirst() == [
            .received(connection: 1, .clientToServer, "0123456789abcdefghij", packet: 4),
            .received(connection: 1, .clientToServer, "KLM", packet: 5),
            .received(connection: 1, .clientToServer, "NOP", packet: 8),
            .received(connection: 1, .clientToServer, "QR", packet: 6),
        ])
        let statistics = try #require(h.delegate.connection(1)).clientToServer
        #expect(statistics.retransmissions == 1)
    }
}
